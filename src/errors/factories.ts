import { ScimError, isScimError } from './scim-error.js';

/**
 * Builds the SCIM errors scimkit answers with, one factory per case.
 *
 * Stores use {@link scimErrors.uniqueness} and {@link scimErrors.versionConflict}; everything
 * else is raised by the core and the engines.
 *
 * @see RFC 7644 §3.12
 * @example
 * ```ts
 * throw scimErrors.uniqueness('userName "ada@example.org" is already taken');
 * ```
 */
export const scimErrors = {
  /** 400 `invalidFilter`: the filter does not parse, or names what cannot be filtered. */
  invalidFilter: (detail: string) => new ScimError(400, detail, { scimType: 'invalidFilter' }),
  /** 400 `invalidSyntax`: the body is not valid JSON or not the message the endpoint takes. */
  invalidSyntax: (detail: string) => new ScimError(400, detail, { scimType: 'invalidSyntax' }),
  /** 400 `invalidPath`: a PATCH path that does not parse or names no attribute. */
  invalidPath: (detail: string) => new ScimError(400, detail, { scimType: 'invalidPath' }),
  /** 400 `noTarget`: a PATCH path or filter that matched nothing where something was required. */
  noTarget: (detail: string) => new ScimError(400, detail, { scimType: 'noTarget' }),
  /** 400 `invalidValue`: a value of the wrong type or outside its allowed values. */
  invalidValue: (detail: string) => new ScimError(400, detail, { scimType: 'invalidValue' }),
  /** 400 `mutability`: an attempt to change a readOnly or immutable attribute. */
  mutability: (detail: string) => new ScimError(400, detail, { scimType: 'mutability' }),
  /** 400 `tooMany`: more operations or results than the server allows. */
  tooMany: (detail: string) => new ScimError(400, detail, { scimType: 'tooMany' }),
  /** 400 `invalidCursor` (RFC 9865): a cursor that is forged, damaged, or made for another query. */
  invalidCursor: (detail: string) => new ScimError(400, detail, { scimType: 'invalidCursor' }),
  /** 400 `expiredCursor` (RFC 9865): a cursor older than the advertised `cursorTimeout`. */
  expiredCursor: (detail: string) => new ScimError(400, detail, { scimType: 'expiredCursor' }),
  /** 400 `invalidCount` (RFC 9865): a cursor page's `count` above the maximum, or changed. */
  invalidCount: (detail: string) => new ScimError(400, detail, { scimType: 'invalidCount' }),
  /** 401: missing, malformed or unknown credentials. */
  unauthorized: (detail = 'A valid bearer token is required.') =>
    new ScimError(401, detail, { headers: { 'www-authenticate': 'Bearer realm="scim"' } }),
  /** 404: no such resource (or route). */
  notFound: (detail: string) => new ScimError(404, detail),
  /** 405: the route exists but not with this method. */
  methodNotAllowed: (detail: string, allow: readonly string[]) =>
    new ScimError(405, detail, { headers: { allow: allow.join(', ') } }),
  /** 408: the request body did not arrive in full within the body timeout. */
  requestTimeout: () =>
    new ScimError(408, 'The request body did not arrive in time; send it again without pausing.'),
  /** 409 `uniqueness`: a unique attribute (such as `userName`) is already taken in the tenant. */
  uniqueness: (detail: string) => new ScimError(409, detail, { scimType: 'uniqueness' }),
  /** 412: the resource changed since the version the write was based on. */
  versionConflict: (detail = 'The resource was modified since the given version.') =>
    new ScimError(412, detail),
  /** 413: the request body is larger than the configured limit. */
  payloadTooLarge: (limit: number) =>
    new ScimError(413, `The request body is larger than the limit of ${limit} bytes.`),
  /** 415: the request body is not `application/scim+json` or `application/json`. */
  unsupportedMediaType: (got: string) =>
    new ScimError(
      415,
      `Content-Type "${got}" is not supported; send application/scim+json or application/json.`,
    ),
  /**
   * 429: the host's rate limit refused the request; `Retry-After` (whole seconds, rounded up)
   * when the host said how long to wait.
   *
   * @see RFC 6585 §4
   */
  tooManyRequests: (retryAfterSeconds?: number) =>
    new ScimError(429, 'Too many requests; slow down and try again later.', {
      headers: Number.isFinite(retryAfterSeconds)
        ? { 'retry-after': String(Math.max(0, Math.ceil(retryAfterSeconds as number))) }
        : undefined,
    }),
  /**
   * 503: the server holds as many request bodies as it may and read no more of this one;
   * `Retry-After` says when to send it again.
   *
   * @see RFC 9110 §15.6.4
   */
  busy: (retryAfterSeconds: number) =>
    new ScimError(
      503,
      'The server is reading too many request bodies at once; send this request again shortly.',
      { headers: { 'retry-after': String(Math.max(0, Math.ceil(retryAfterSeconds))) } },
    ),
  /** 501: an RFC 7644 endpoint this server does not implement. */
  notImplemented: (detail: string) => new ScimError(501, detail),
  /** 500: an unexpected fault; the detail never carries internals. */
  internal: (cause?: unknown) => new ScimError(500, 'An internal error occurred.', { cause }),
} as const;

/**
 * Turns any thrown value into a {@link ScimError}; anything unexpected becomes a 500 that keeps
 * the original as `cause` and sends no internal detail.
 */
export function toScimError(error: unknown): ScimError {
  if (isScimError(error)) return error;
  return scimErrors.internal(error);
}
