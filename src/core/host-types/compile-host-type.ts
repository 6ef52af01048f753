import { externalIdAttribute, idAttribute, metaAttribute } from '../../schema/common-attributes.js';
import type { DialectRuleName } from '../../schema/dialect-rules.js';
import { compileResourceType, type CompiledResourceType } from '../../schema/resource-type.js';
import type { SchemaDefinition } from '../../schema/types.js';
import type { HostResourceType } from './host-resource-type.js';

/**
 * Returns the host's core schema with the RFC 7643 §3.1 common attributes it does not list
 * (`id` first, then `externalId`, `meta` last), so that every engine finds them in the one
 * compiled model; the schema itself when it lists them all.
 */
export function withCommonAttributes(schema: SchemaDefinition, name: string): SchemaDefinition {
  const has = (attribute: string) =>
    schema.attributes.some((a) => a.name.toLowerCase() === attribute.toLowerCase());
  if (has('id') && has('externalId') && has('meta')) return schema;
  return {
    ...schema,
    attributes: [
      ...(has('id') ? [] : [idAttribute]),
      ...(has('externalId') ? [] : [externalIdAttribute]),
      ...schema.attributes,
      ...(has('meta') ? [] : [metaAttribute(name)]),
    ],
  };
}

/**
 * Compiles a resource type the host registers, with the common attributes added to its core
 * schema and the dialect switches of a profile (`rules`: those switched off are `false`).
 */
export function compileHostType(
  host: HostResourceType,
  rules?: Partial<Record<DialectRuleName, boolean>>,
): CompiledResourceType {
  return compileResourceType({
    name: host.name,
    endpoint: host.endpoint,
    ...(host.description === undefined ? {} : { description: host.description }),
    schema: withCommonAttributes(host.schema, host.name),
    extensions: host.extensions ?? [],
    ...(rules === undefined ? {} : { rules }),
  });
}
