import type { SchemaDefinition } from './types.js';

/**
 * Declares a schema (a host's extension, typically) and keeps its literal types: the URN and
 * each attribute's characteristics, so `InferExtension<typeof schema>` gives the exact type of
 * its values. At run time it returns its argument.
 *
 * @example
 * ```ts
 * const districtSchema = defineSchema({
 *   id: 'urn:example:params:scim:schemas:extension:district:2.0:User',
 *   name: 'District',
 *   description: 'District student data',
 *   attributes: [defineAttribute('studentNumber', 'string', { required: true, mutability: 'immutable' })],
 * });
 * type District = InferExtension<typeof districtSchema>; // { studentNumber: string }
 * ```
 * @see RFC 7643 §3.3 (extensions), §7
 */
export function defineSchema<const S extends SchemaDefinition>(schema: S): S {
  return schema;
}
