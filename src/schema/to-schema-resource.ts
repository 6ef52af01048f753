import type { AttributeDefinition, SchemaDefinition } from './types.js';
import { SCHEMA_SCHEMA } from './urns.js';

// The common attributes (`id`, `externalId`, `meta`) are part of every resource, not of the
// User schema's published attribute list (RFC 7643 §3.1, §8.7.1).
const COMMON = new Set(['id', 'externalId', 'meta']);

function attributeResource(a: AttributeDefinition): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: a.name,
    type: a.type,
    multiValued: a.multiValued,
    description: a.description,
    required: a.required,
    caseExact: a.caseExact,
    mutability: a.mutability,
    returned: a.returned,
    uniqueness: a.uniqueness,
  };
  if (a.canonicalValues) out.canonicalValues = [...a.canonicalValues];
  if (a.referenceTypes) out.referenceTypes = [...a.referenceTypes];
  if (a.subAttributes) out.subAttributes = a.subAttributes.map(attributeResource);
  return out;
}

/**
 * Renders a schema definition as the RFC 7643 §7 Schema resource served at `/Schemas/{id}`:
 * the same definition that validates, patches, filters and projects.
 *
 * @see RFC 7643 §7, §8.7.1
 */
export function toSchemaResource(
  schema: SchemaDefinition,
  location: string,
): Record<string, unknown> {
  return {
    schemas: [SCHEMA_SCHEMA],
    id: schema.id,
    name: schema.name,
    description: schema.description,
    attributes: schema.attributes.filter((a) => !COMMON.has(a.name)).map(attributeResource),
    meta: { resourceType: 'Schema', location },
  };
}
