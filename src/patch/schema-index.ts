import type { AttributeDefinition, SchemaDefinition } from '../schema/types.js';
import type { SchemaIndex } from './types.js';

const cache = new WeakMap<readonly SchemaDefinition[], SchemaIndex>();
const subCache = new WeakMap<AttributeDefinition, Map<string, AttributeDefinition>>();
const attrCache = new WeakMap<SchemaDefinition, Map<string, AttributeDefinition>>();

function byName(
  list: readonly AttributeDefinition[] | undefined,
): Map<string, AttributeDefinition> {
  const map = new Map<string, AttributeDefinition>();
  for (const a of list ?? []) map.set(a.name.toLowerCase(), a);
  return map;
}

/**
 * Returns the lookup index of a schema list, building it on first use; the host passes the same
 * array on every request, so resolution costs a map lookup, not a scan.
 */
export function schemaIndex(schemas: readonly SchemaDefinition[]): SchemaIndex {
  let index = cache.get(schemas);
  if (index) return index;
  const core = schemas[0];
  if (!core) throw new TypeError('applyPatch needs at least the core schema in options.schemas');
  const byUrn = new Map(schemas.map((s) => [s.id.toLowerCase(), s]));
  const required = schemas.flatMap((s) =>
    s.attributes.filter((a) => a.required).map((a) => [s, a] as const),
  );
  index = {
    core,
    byUrn,
    required,
    attribute(schema, name) {
      let map = attrCache.get(schema);
      if (!map) attrCache.set(schema, (map = byName(schema.attributes)));
      return map.get(name) ?? map.get(name.toLowerCase());
    },
    subAttribute(parent, name) {
      let map = subCache.get(parent);
      if (!map) subCache.set(parent, (map = byName(parent.subAttributes)));
      return map.get(name) ?? map.get(name.toLowerCase());
    },
  };
  cache.set(schemas, index);
  return index;
}
