/** Header values as Node and most frameworks give them. */
export type HeaderValue = string | readonly string[] | undefined;

/**
 * A request as an adapter hands it to {@link Scim.handle}: plain data, no streams.
 *
 * @example
 * ```ts
 * const response = await scim.handle({
 *   method: 'GET',
 *   path: '/api/v1/scim/v2/Users',
 *   query: 'filter=userName%20eq%20%22ada%40example.org%22',
 *   headers: { authorization: 'Bearer s3cret' },
 *   baseUrl: 'https://scim.example.org',
 * });
 * ```
 */
export interface ScimRequest {
  /** The HTTP method, any letter case. */
  readonly method: string;
  /** The URL path (no query string). The configured `basePath` is removed when present. */
  readonly path: string;
  /** The raw query string (with or without `?`), or parsed parameters. */
  readonly query?: string | URLSearchParams | Readonly<Record<string, HeaderValue>>;
  /** Request headers; names in any letter case. */
  readonly headers: Readonly<Record<string, HeaderValue>>;
  /**
   * The raw body as text or bytes when the adapter can get it, so every adapter shares the
   * core's size limit, JSON errors and media-type checks; or a value a host's own body parser
   * already produced.
   */
  readonly body?: unknown;
  /** `scheme://host[:port]` of the request, for `meta.location` and `Location`. */
  readonly baseUrl?: string;
  /** Anything the host wants to hand through to its stores or hooks. */
  readonly context?: unknown;
}

/** A response for the adapter to write: the body is already serialised. */
export interface ScimResponse {
  /** The HTTP status code. */
  readonly status: number;
  /** The response headers, lower-case names (`content-type`, `location`, `etag`, ...). */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON text, or `undefined` for 204 and 304. */
  readonly body: string | undefined;
}

/**
 * Describes a request before its body is read: what an adapter knows from the request line and
 * the headers. {@link Scim.begin} decides on it.
 */
export type ScimRequestHead = Omit<ScimRequest, 'body'>;

/**
 * Says how an adapter's read of a request body ended: `complete`; `cut` at the size limit
 * with the rest left unread; `timeout` when the whole body did not arrive within the body
 * timeout; `aborted` when the client went away or the stream failed; `busy` when the adapter
 * already holds as many body bytes as it may (`maxBufferedBodyBytes`), with the rest unread.
 */
export type BodyEnd = 'complete' | 'cut' | 'timeout' | 'aborted' | 'busy';

/**
 * Answers a request that {@link Scim.begin} admitted, once the adapter has read its body:
 * bytes or text, a value a host's own body parser produced, or `undefined` for none.
 * Never rejects.
 */
export type ScimBodyPhase = (body: unknown, end?: BodyEnd) => Promise<ScimResponse>;

/** Holds what {@link Scim.begin} decided from a request head: an answer now, or the body phase. */
export type ScimAdmission = ScimResponse | ScimBodyPhase;
