import type { ApiKeyVerifier, Tenant } from '../../contracts/api-key-verifier.js';
import { scimErrors } from '../../errors/index.js';
import { checkTenant } from './check-tenant.js';

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Finds the tenant of a request from its `authorization: Bearer <key>` header.
 *
 * @throws ScimError 401 with `WWW-Authenticate: Bearer` for a missing, malformed or unknown key,
 *   500 when the verifier answers anything but a well-formed tenant or `null` (see
 *   {@link checkTenant}).
 * @see RFC 7644 §2; RFC 6750 §3
 */
export async function authenticate(
  authorization: string | undefined,
  verifier: ApiKeyVerifier,
): Promise<Tenant> {
  if (authorization === undefined)
    throw scimErrors.unauthorized('The authorization header is missing.');
  const match = BEARER.exec(authorization);
  if (!match?.[1])
    throw scimErrors.unauthorized('The authorization header must be "Bearer <API key>".');
  const tenant = await verifier.verify(match[1]);
  if (tenant === null || tenant === undefined)
    throw scimErrors.unauthorized('The API key is not valid.');
  return checkTenant(tenant);
}
