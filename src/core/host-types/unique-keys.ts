import type { ScimResource, UniqueKeys } from '../../contracts/resource-store.js';
import { isJsonObject, setMember } from '../../json/json-value.js';
import { foldCase } from '../../schema/fold-case.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';

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
      if (a.uniqueness === 'none' || a.name === 'id' || a.multiValued || a.type === 'complex')
        continue;
      const value = holder[a.name];
      if (value === undefined || value === null) continue;
      const key =
        typeof value !== 'string' ? JSON.stringify(value) : a.caseExact ? value : foldCase(value);
      setMember(keys, core ? a.name : `${schema.id}:${a.name}`, key);
    }
  }
  return keys;
}
