import type { ApiKeyVerifier, Tenant } from '../../contracts/api-key-verifier.js';
import { scimErrors } from '../../errors/index.js';
import { checkTenant } from './check-tenant.js';

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Finds the tenant of a request from its `authorization: Bearer <key>` header. Answers without
 * a promise when the verifier does (as `staticApiKeys` does on Node): no microtask per request.
 *
 * @throws ScimError 401 with `WWW-Authenticate: Bearer` for a missing, malformed or unknown key,
 *   500 when the verifier answers anything but a well-formed tenant or `null` (see
 *   {@link checkTenant}); a rejected promise when the verifier is asynchronous.
 * @see RFC 7644 §2; RFC 6750 §3
 */
export function authenticate(
  authorization: string | undefined,
  verifier: ApiKeyVerifier,
): Tenant | Promise<Tenant> {
  if (authorization === undefined)
    throw scimErrors.unauthorized('The authorization header is missing.');
  const match = BEARER.exec(authorization);
  if (!match?.[1])
    throw scimErrors.unauthorized('The authorization header must be "Bearer <API key>".');
  const found = verifier.verify(match[1]);
  return isThenable(found) ? Promise.resolve(found).then(known) : known(found);
}

/** Tells whether a value is a promise or any other thenable, which must be awaited. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function known(tenant: Tenant | null | undefined): Tenant {
  if (tenant === null || tenant === undefined)
    throw scimErrors.unauthorized('The API key is not valid.');
  return checkTenant(tenant);
}
