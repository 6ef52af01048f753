import { defineAttribute } from './define-attribute.js';
import type { AttributeDefinition } from './types.js';

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
