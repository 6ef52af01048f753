import type { ScimResource, UniqueKeys } from '../../contracts/resource-store.js';
import { isJsonObject, setMember } from '../../json/json-value.js';
import { checkKeyText } from '../../schema/check-key-text.js';
import { foldCase } from '../../schema/fold-case.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { AttributeDefinition } from '../../schema/types.js';

// The attributes a store keys on: unique, singular, not complex; `id` is the store's own.
const keyed = (a: AttributeDefinition) =>
  a.uniqueness !== 'none' && a.name !== 'id' && !a.multiValued && a.type !== 'complex';

/**
 * Computes the keys of a resource's unique attributes (RFC 7643 §7 `uniqueness` `server` or
 * `global`, which a tenant's service cannot tell apart): each singular, non-complex attribute
 * with a value, by name (an extension's as `urn:…:name`); strings that are not `caseExact`
 * by their Unicode simple case folding, other values as JSON text. `id` is the store's own.
 */
export function uniqueKeysOf(resource: ScimResource, type: CompiledResourceType): UniqueKeys {
  const keys: Record<string, string> = {};
  for (const schema of type.schemas) {
    const core = schema === type.core;
    const holder = core ? resource : resource[schema.id];
    if (!isJsonObject(holder)) continue;
    for (const a of schema.attributes) {
      if (!keyed(a)) continue;
      const value = holder[a.name];
      if (value === undefined || value === null) continue;
      const key =
        typeof value !== 'string' ? JSON.stringify(value) : a.caseExact ? value : foldCase(value);
      setMember(keys, core ? a.name : `${schema.id}:${a.name}`, key);
    }
  }
  return keys;
}

/**
 * The unique keys a body as sent would give its resource, for telling apart writes that cannot
 * collide: like {@link uniqueKeysOf}, but names (and extension URNs) match in any case, as a
 * body's do, every member that matches counts, and every string is case folded, so two bodies
 * that could take one key always share one. Each key is `name=value`.
 */
export function keysSentIn(
  body: Readonly<Record<string, unknown>>,
  type: CompiledResourceType,
): string[] {
  const keys: string[] = [];
  for (const schema of type.schemas) {
    const core = schema === type.core;
    const holders = core ? [body] : membersInAnyCase(body, schema.id);
    for (const holder of holders) {
      if (!isJsonObject(holder)) continue;
      for (const a of schema.attributes) {
        if (!keyed(a)) continue;
        for (const value of membersInAnyCase(holder, a.name)) {
          if (value === undefined || value === null) continue;
          const key = typeof value === 'string' ? foldCase(value) : JSON.stringify(value);
          keys.push(`${core ? a.name : `${schema.id}:${a.name}`}=${key}`);
        }
      }
    }
  }
  return keys;
}

// The members of `object` named `name` in any case.
function membersInAnyCase(object: Readonly<Record<string, unknown>>, name: string): unknown[] {
  const lower = name.toLowerCase();
  return Object.keys(object)
    .filter((key) => key.toLowerCase() === lower)
    .map((key) => object[key]);
}

/**
 * Refuses a resource about to be written whose unique attributes hold text longer than a store
 * can key on (`checkKeyText`, 400 `invalidValue`); a value `current` holds already passes.
 */
export function checkUniqueKeyText(
  resource: Readonly<Record<string, unknown>>,
  type: CompiledResourceType,
  current?: Readonly<Record<string, unknown>>,
): void {
  for (const schema of type.schemas) {
    const core = schema === type.core;
    const holder = core ? resource : resource[schema.id];
    if (!isJsonObject(holder)) continue;
    const before = core ? current : current?.[schema.id];
    const names = schema.attributes.filter(keyed).map((a) => a.name);
    checkKeyText(holder, names, isJsonObject(before) ? before : undefined);
  }
}
