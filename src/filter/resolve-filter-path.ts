import { findAttribute, resolveAttribute } from '../schema/resolve-attribute.js';
import { defineAttribute } from '../schema/define-attribute.js';
import type { AttributeDefinition, SchemaDefinition } from '../schema/types.js';
import type { AttributePath } from './ast.js';

/**
 * The common `schemas` attribute of every resource (RFC 7643 §3), which no schema lists but
 * RFC 7644 §3.4.2.2 filters on (`schemas eq "urn:...:enterprise:2.0:User"`). Schema URIs
 * compare without case.
 */
export const SCHEMAS_ATTRIBUTE: AttributeDefinition = defineAttribute('schemas', 'reference', {
  multiValued: true,
  required: true,
  mutability: 'readOnly',
  returned: 'always',
  description: 'The schema URIs the resource conforms to.',
});

/** Where a filter's attribute path leads, with canonical names. */
export interface FilterTarget {
  /** The extension URN holding the attribute, canonical; `undefined` for the core schema. */
  readonly extension: string | undefined;
  readonly attribute: AttributeDefinition;
  readonly subAttribute: AttributeDefinition | undefined;
}

/**
 * Resolves a filter's attribute path: against the resource's schemas at the top level, or
 * against the sub-attributes of `parent` inside a value path (`emails[type eq "work"]`).
 * Returns `undefined` when the path names nothing.
 */
export function resolveFilterPath(
  path: AttributePath,
  schemas: readonly SchemaDefinition[],
  parent?: AttributeDefinition,
): FilterTarget | undefined {
  if (parent !== undefined) {
    if (path.schema !== undefined || path.subAttribute !== undefined) return undefined;
    const attribute = findAttribute(parent.subAttributes, path.attribute);
    return attribute && { extension: undefined, attribute, subAttribute: undefined };
  }
  if (path.schema === undefined && path.attribute.toLowerCase() === 'schemas') {
    if (path.subAttribute !== undefined) return undefined;
    return { extension: undefined, attribute: SCHEMAS_ATTRIBUTE, subAttribute: undefined };
  }
  const resolved = resolveAttribute(path, schemas);
  if (!resolved) return undefined;
  return {
    extension: resolved.isCore ? undefined : resolved.schema.id,
    attribute: resolved.attribute,
    subAttribute: resolved.subAttribute,
  };
}
