import type { AttributeDefinition } from './types.js';

/**
 * Tells whether RFC 7643 `immutable` can hold back a value of the attribute on a write: it is
 * immutable itself, or a singular attribute with an immutable sub-attribute (`keepImmutable`
 * checks those). Any other attribute's value always passes as it is.
 */
export function holdsImmutable(definition: AttributeDefinition): boolean {
  if (definition.mutability === 'immutable') return true;
  if (definition.multiValued) return false;
  return definition.subAttributes?.some((sub) => sub.mutability === 'immutable') ?? false;
}
