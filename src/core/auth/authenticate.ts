import type { ApiKeyVerifier, Tenant } from '../../contracts/api-key-verifier.js';
import { scimErrors } from '../../errors/index.js';

/**
 * Finds the tenant of a request from its `authorization: Bearer <key>` header. Answers without
 * a promise when the verifier does (as `staticApiKeys` does on Node): no microtask per request.
 *
 * @throws ScimError 401 with `WWW-Authenticate: Bearer` for a missing, malformed or unknown key
 *   (a rejected promise when the verifier is asynchronous).
 * @see RFC 7644 §2; RFC 6750 §3
 */
export function authenticate(
  authorization: string | undefined,
  verifier: ApiKeyVerifier,
): Tenant | Promise<Tenant> {
  if (authorization === undefined)
    throw scimErrors.unauthorized('The authorization header is missing.');
  const token = bearerToken(authorization);
  if (token === undefined)
    throw scimErrors.unauthorized('The authorization header must be "Bearer <API key>".');
  const found = verifier.verify(token);
  return isThenable(found) ? Promise.resolve(found).then(known) : known(found);
}

/** Tells whether a value is a promise or any other thenable, which must be awaited. */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function known(tenant: Tenant | null): Tenant {
  if (!tenant) throw scimErrors.unauthorized('The API key is not valid.');
  return tenant;
}

// `bearer`, as lower-case character codes.
const BEARER = [0x62, 0x65, 0x61, 0x72, 0x65, 0x72];

/**
 * Returns the token of an `Authorization` header of the form `Bearer <token>`: what
 * `/^bearer[ \t]+(\S+)[ \t]*$/i` captures, `undefined` where it does not match. Read by hand,
 * not by that expression, because every request reads it: no match array and about a fifth
 * of the instructions (bench/RESULTS.md, "Session 11: reads"). Held to the expression by a
 * property test (test/core/auth.test.ts).
 *
 * @see RFC 6750 §2.1
 */
export function bearerToken(header: string): string | undefined {
  const { length } = header;
  if (length < 8) return undefined;
  // The scheme in any ASCII case: `| 0x20` lower-cases a letter, and only its own upper case
  // maps to the same code.
  for (let i = 0; i < 6; i++) if ((header.charCodeAt(i) | 0x20) !== BEARER[i]) return undefined;
  let start = 6;
  while (start < length && isBlank(header.charCodeAt(start))) start++;
  if (start === 6) return undefined;
  let end = start;
  while (end < length && !isWhiteSpace(header.charCodeAt(end))) end++;
  if (end === start) return undefined;
  for (let i = end; i < length; i++) if (!isBlank(header.charCodeAt(i))) return undefined;
  return header.slice(start, end);
}

// A space or a tab: what may stand around the token.
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

// What `\s` matches in a JavaScript regular expression (ECMA-262 WhiteSpace and
// LineTerminator), which ends the token.
function isWhiteSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
