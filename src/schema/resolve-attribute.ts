import type { AttributePath } from '../filter/ast.js';
import type { AttributeDefinition, SchemaDefinition } from './types.js';

/** Where an attribute path leads in a resource's schemas. */
export interface ResolvedAttribute {
  /** The schema that defines the attribute. */
  readonly schema: SchemaDefinition;
  /** True when the attribute belongs to the resource's core schema (not an extension). */
  readonly isCore: boolean;
  /** The top-level attribute. */
  readonly attribute: AttributeDefinition;
  /** The sub-attribute, when the path names one. */
  readonly subAttribute?: AttributeDefinition;
}

/** Finds an attribute of a list by name, ignoring letter case (RFC 7643 §2.1). */
export function findAttribute(
  attributes: readonly AttributeDefinition[] | undefined,
  name: string,
): AttributeDefinition | undefined {
  if (!attributes) return undefined;
  const lower = name.toLowerCase();
  for (const a of attributes) if (a.name.toLowerCase() === lower) return a;
  return undefined;
}

/**
 * Resolves an attribute path against a resource's schemas: the first schema is the core
 * schema, the rest are extensions. A path without a URN is looked up in the core schema only;
 * schema URNs and names match regardless of letter case. Returns `undefined` when the path names
 * no attribute.
 *
 * @see RFC 7644 §3.10
 */
export function resolveAttribute(
  path: AttributePath,
  schemas: readonly SchemaDefinition[],
): ResolvedAttribute | undefined {
  const urn = path.schema?.toLowerCase();
  const schema = urn === undefined ? schemas[0] : schemas.find((s) => s.id.toLowerCase() === urn);
  if (!schema) return undefined;
  const attribute = findAttribute(schema.attributes, path.attribute);
  if (!attribute) return undefined;
  const isCore = schema === schemas[0];
  if (path.subAttribute === undefined) return { schema, isCore, attribute };
  const subAttribute = findAttribute(attribute.subAttributes, path.subAttribute);
  if (!subAttribute) return undefined;
  return { schema, isCore, attribute, subAttribute };
}
