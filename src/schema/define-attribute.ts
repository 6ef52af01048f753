import type { AttributeDefinition, AttributeType } from './types.js';

type AttributeOptions = Partial<Omit<AttributeDefinition, 'name' | 'type'>>;

/**
 * Builds an attribute definition with RFC 7643 §2.2 defaults (singular, optional,
 * case-insensitive, readWrite, returned by default, not unique), so schema tables list only
 * what differs from them.
 */
export function defineAttribute(
  name: string,
  type: AttributeType,
  options: AttributeOptions = {},
): AttributeDefinition {
  return {
    name,
    type,
    multiValued: false,
    description: '',
    required: false,
    caseExact: false,
    mutability: 'readWrite',
    returned: 'default',
    uniqueness: 'none',
    ...options,
  };
}
