import type { Scope } from '../../contracts/api-key-verifier.js';

/** Every scope, in the order they widen. */
export const SCOPES: readonly Scope[] = ['scim:read', 'scim:write'];

/** Tells whether a value names a {@link Scope}. */
export function isScope(value: unknown): value is Scope {
  return value === 'scim:read' || value === 'scim:write';
}
