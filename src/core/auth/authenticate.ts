import type { Tenant } from '../../contracts/api-key-verifier.js';
import { scimErrors } from '../../errors/index.js';
import { checkTenant } from './check-tenant.js';

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Reads the API key of an `authorization: Bearer <key>` header.
 *
 * @throws ScimError 401 with `WWW-Authenticate: Bearer` for a missing or malformed header.
 * @see RFC 7644 §2; RFC 6750 §3
 */
export function bearerKey(authorization: string | undefined): string {
  if (authorization === undefined)
    throw scimErrors.unauthorized('The authorization header is missing.');
  const match = BEARER.exec(authorization);
  if (!match?.[1])
    throw scimErrors.unauthorized('The authorization header must be "Bearer <API key>".');
  return match[1];
}

/**
 * The tenant of a verifier's answer for a key.
 *
 * @throws ScimError 401 for an unknown key (`null`), 500 when the verifier answered anything but
 *   a well-formed tenant or `null` (see {@link checkTenant}).
 */
export function verifiedTenant(answer: Tenant | null | undefined): Tenant {
  if (answer === null || answer === undefined)
    throw scimErrors.unauthorized('The API key is not valid.');
  return checkTenant(answer);
}
