import type { Tenant } from '../../contracts/api-key-verifier.js';
import { scimErrors } from '../../errors/index.js';
import { isClientText } from '../../json/client-text.js';
import { MAX_KEY_TEXT_LENGTH } from '../../schema/check-key-text.js';
import { isScope } from './scopes.js';

/**
 * Says what is wrong with a tenant id, or `undefined` when it is one every store can key on:
 * a non-empty string of client text within {@link MAX_KEY_TEXT_LENGTH} characters.
 */
export function tenantIdProblem(id: unknown): string | undefined {
  if (typeof id !== 'string') return `the tenant id is ${describe(id)}, not a string`;
  if (id === '') return 'the tenant id is empty';
  if (id.length > MAX_KEY_TEXT_LENGTH)
    return `the tenant id has ${id.length} characters, more than ${MAX_KEY_TEXT_LENGTH}`;
  if (!isClientText(id)) return 'the tenant id holds U+0000 or a lone surrogate';
  return undefined;
}

// A value named for a log line, never printed in full: a verifier may hand back a secret.
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * Says what is wrong with a verifier's answer, or `undefined` when it is a well-formed
 * {@link Tenant}: `{ id, profile?, scopes? }` with a valid id, a string profile and an array
 * of known scopes.
 */
export function tenantProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `the verifier returned ${describe(value)} instead of a Tenant object or null`;
  const { id, profile, scopes } = value as Record<string, unknown>;
  const idProblem = tenantIdProblem(id);
  if (idProblem !== undefined) return idProblem;
  if (profile !== undefined && typeof profile !== 'string')
    return `the tenant's profile is ${describe(profile)}, not a string`;
  if (scopes !== undefined && !(Array.isArray(scopes) && scopes.every(isScope)))
    return `the tenant's scopes must be an array of "scim:read" and "scim:write"`;
  return undefined;
}

/**
 * Checks the tenant a verifier answered with before any store sees it: a malformed answer (a
 * plain string, an object without an id) would otherwise scope every request to one shared
 * directory, or none.
 *
 * @throws ScimError 500 with no detail for the client; the problem is the error's `cause`, for
 *   the host's `onError`.
 */
export function checkTenant(value: unknown): Tenant {
  const problem = tenantProblem(value);
  if (problem === undefined) return value as Tenant;
  throw scimErrors.internal(new TypeError(`ApiKeyVerifier.verify: ${problem}.`));
}
