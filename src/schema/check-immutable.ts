import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { AttributeDefinition, SchemaDefinition } from './types.js';

type Json = Record<string, unknown>;

// One comparable form per value: strings folded when the attribute is not caseExact, and
// multi-valued values sorted, since their order carries no meaning (RFC 7643 §2.4).
function comparable(value: unknown, definition: AttributeDefinition): string {
  const one = (x: unknown): string => {
    if (typeof x === 'string') return JSON.stringify(definition.caseExact ? x : x.toLowerCase());
    if (!isJsonObject(x) || definition.type !== 'complex') return JSON.stringify(x);
    const subs = definition.subAttributes ?? [];
    const parts = Object.keys(x)
      .sort()
      .map((key) => {
        const sub = subs.find((s) => s.name === key);
        const single = sub
          ? { ...sub, multiValued: false }
          : { ...definition, type: 'string' as const, caseExact: true };
        return `${JSON.stringify(key)}:${comparable(x[key], single)}`;
      });
    return `{${parts.join(',')}}`;
  };
  if (definition.multiValued && Array.isArray(value)) return `[${value.map(one).sort().join(',')}]`;
  return one(value);
}

function checkValues(
  current: Readonly<Json>,
  next: Json,
  definitions: readonly AttributeDefinition[],
  where: string,
): Json {
  let out = next;
  for (const definition of definitions) {
    const name = definition.name;
    const stored = current[name];
    if (definition.mutability === 'immutable') {
      if (stored === undefined) continue;
      if (next[name] === undefined) {
        // PUT cannot clear a set immutable value; leaving it out keeps it.
        out = out === next ? { ...next } : out;
        out[name] = stored;
      } else if (comparable(next[name], definition) !== comparable(stored, definition)) {
        throw scimErrors.mutability(
          `"${where}${name}" is immutable: it is already set to ${JSON.stringify(stored)} and cannot become ${JSON.stringify(next[name])}.`,
        );
      }
    } else if (definition.type === 'complex' && !definition.multiValued && isJsonObject(stored)) {
      const value = next[name];
      const inner = checkValues(
        stored,
        isJsonObject(value) ? value : {},
        definition.subAttributes ?? [],
        `${where}${name}.`,
      );
      if (inner !== value && (value !== undefined || Object.keys(inner).length > 0)) {
        out = out === next ? { ...next } : out;
        out[name] = inner;
      }
    }
  }
  return out;
}

/**
 * Applies RFC 7643 §7 `immutable` to a PUT: an immutable attribute (or a sub-attribute of a
 * singular complex one) may be set when the stored resource has no value for it; once set, a
 * value sent must equal the stored one (strings regardless of case unless caseExact,
 * multi-valued values in any order), and a value left out keeps the stored one. Pure: returns
 * `next`, or a copy of it with the kept values, and never changes its arguments. Immutable
 * sub-attributes of multi-valued attributes are not checked: no key pairs old and new values.
 *
 * @param current The stored resource (core attributes at the top level, extensions under
 *   their URN).
 * @param next The attributes of the PUT body, as `validateUserInput` returns them.
 * @param schemas The resource's schemas, core first.
 * @throws ScimError 400 `mutability` naming the attribute when a set value would change.
 * @see RFC 7643 §7 (mutability); RFC 7644 §3.5.1
 */
export function checkImmutable(
  current: Readonly<Json>,
  next: Json,
  schemas: readonly SchemaDefinition[],
): Json {
  const [core, ...extensions] = schemas;
  if (!core) return next;
  let out = checkValues(current, next, core.attributes, '');
  for (const extension of extensions) {
    const stored = current[extension.id];
    if (!isJsonObject(stored)) continue;
    const sent = out[extension.id];
    const values = isJsonObject(sent) ? sent : {};
    const checked = checkValues(stored, values, extension.attributes, `${extension.id}:`);
    if (checked !== values && (sent !== undefined || Object.keys(checked).length > 0)) {
      out = out === next ? { ...next } : out;
      out[extension.id] = checked;
    }
  }
  return out;
}
