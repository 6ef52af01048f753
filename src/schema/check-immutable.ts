import { isJsonObject, jsonEqual } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import { foldCase } from './fold-case.js';
import type { CompiledResourceType } from './resource-type.js';
import { holdsImmutable } from './holds-immutable.js';
import type { AttributeDefinition } from './types.js';

type Json = Record<string, unknown>;

/** What a write does with a set immutable value it leaves out: PUT keeps it, PATCH may not remove it. */
export type LeftOutImmutable = 'keep' | 'refuse';

// One comparable form per value: strings folded (foldCase, as userName and filters) when the
// attribute is not caseExact, and multi-valued values sorted, since their order carries no
// meaning (RFC 7643 §2.4).
function comparable(value: unknown, definition: AttributeDefinition): string {
  const one = (x: unknown): string => {
    if (typeof x === 'string') return JSON.stringify(definition.caseExact ? x : foldCase(x));
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

// Unassigned: absent, null or an empty list (RFC 7643 §2.5).
function unassigned(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

// A value shown in an error, cut short: a stored list may hold thousands of values.
function shown(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function checkValues(
  current: Readonly<Json>,
  next: Json,
  definitions: readonly AttributeDefinition[],
  where: string,
  leftOut: LeftOutImmutable,
): Json {
  let out = next;
  for (const definition of definitions) {
    const name = definition.name;
    const stored = current[name];
    if (unassigned(stored)) continue;
    const value = next[name];
    const kept = keepImmutable(definition, stored, value, `${where}${name}`, leftOut);
    if (kept === value) continue;
    out = out === next ? { ...next } : out;
    if (kept === undefined) delete out[name];
    else out[name] = kept;
  }
  return out;
}

/**
 * Applies RFC 7643 §7 `immutable` to one attribute a write changes from `stored` to `next`: an
 * immutable attribute (or an immutable sub-attribute of a singular complex one) may be set
 * while it has no value; once set, the new value must equal the stored one (strings regardless
 * of case by {@link foldCase} unless caseExact, multi-valued values in any order), and the
 * stored value is what stays, in its own spelling and order. A value the write leaves out is
 * kept (`'keep'`, PUT) or refused (`'refuse'`, PATCH: a remove is a change). Immutable
 * sub-attributes of multi-valued attributes are not checked: no key pairs old and new values.
 * This is the one immutability rule of PUT and PATCH.
 *
 * @param path The attribute's canonical path for the error (`urn:…:User:studentNumber`).
 * @returns `next`, or the stored value (or a copy of `next` with stored sub-attributes) where
 *   that is what stays; the arguments are never changed.
 * @throws ScimError 400 `mutability` naming the attribute when a set value would change.
 * @see RFC 7643 §7 (mutability); RFC 7644 §3.5.1, §3.5.2
 */
export function keepImmutable(
  definition: AttributeDefinition,
  stored: unknown,
  next: unknown,
  path: string,
  leftOut: LeftOutImmutable,
): unknown {
  if (unassigned(stored) || !holdsImmutable(definition)) return next;
  if (definition.mutability === 'immutable') {
    if (unassigned(next) && leftOut === 'keep') return stored;
    if (unassigned(next) || comparable(next, definition) !== comparable(stored, definition)) {
      const change = unassigned(next) ? 'be removed' : `become ${shown(next)}`;
      throw scimErrors.mutability(
        `"${path}" is immutable: it is already set to ${shown(stored)} and cannot ${change}.`,
      );
    }
    return jsonEqual(next, stored) ? next : stored;
  }
  // A singular attribute with an immutable sub-attribute.
  const subs = definition.subAttributes;
  if (!isJsonObject(stored) || !subs) return next;
  const value = isJsonObject(next) ? next : {};
  const inner = checkValues(stored, value, subs, `${path}.`, leftOut);
  return inner === value ? next : inner;
}

/**
 * Applies `keepImmutable` to every attribute of a PUT: a set immutable value sent again
 * must be the same (and stays as stored), one left out is kept. Pure: returns `next`, or a copy
 * of it with the kept values, and never changes its arguments.
 *
 * @param current The stored resource (core attributes at the top level, extensions under
 *   their URN).
 * @param next The attributes of the PUT body, as `validateResourceInput` returns them.
 * @param type The compiled resource type.
 * @throws ScimError 400 `mutability` naming the attribute when a set value would change.
 * @see RFC 7643 §7 (mutability); RFC 7644 §3.5.1
 */
export function checkImmutable(
  current: Readonly<Json>,
  next: Json,
  type: CompiledResourceType,
): Json {
  const { core, extensions } = type;
  let out = checkValues(current, next, core.attributes, '', 'keep');
  for (const extension of extensions) {
    const stored = current[extension.id];
    if (!isJsonObject(stored)) continue;
    const sent = out[extension.id];
    const values = isJsonObject(sent) ? sent : {};
    const checked = checkValues(stored, values, extension.attributes, `${extension.id}:`, 'keep');
    if (checked !== values && (sent !== undefined || Object.keys(checked).length > 0)) {
      out = out === next ? { ...next } : out;
      out[extension.id] = checked;
    }
  }
  return out;
}
