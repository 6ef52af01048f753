import { scimErrors } from '../../errors/index.js';
import type { HeaderValue } from '../types.js';
import { getHeader } from './headers.js';
import { isJsonMediaType } from './media-type.js';

type Headers = Readonly<Record<string, HeaderValue>>;

/**
 * Tells whether a request's headers announce a body. RFC 9112 §6.3: an HTTP/1.1 request
 * without `Content-Length` or `Transfer-Encoding` has none.
 */
export function declaresBody(headers: Headers): boolean {
  const length = getHeader(headers, 'content-length');
  return (
    (length !== undefined && length !== '0') ||
    getHeader(headers, 'transfer-encoding') !== undefined
  );
}

/**
 * Refuses a body whose `Content-Type` scimkit does not read; no `Content-Type` at all is taken
 * as JSON. One rule for the head phase and for the handler that reads the body.
 *
 * @throws ScimError 415.
 */
export function checkBodyMediaType(headers: Headers): void {
  const contentType = getHeader(headers, 'content-type');
  if (contentType !== undefined && contentType !== '' && !isJsonMediaType(contentType)) {
    throw scimErrors.unsupportedMediaType(contentType);
  }
}

/**
 * Refuses a body its headers declare (see {@link declaresBody}) before a byte of it is read: a
 * media type scimkit does not read, or a `Content-Length` over the limit. The same rules apply
 * again to the body itself when a handler reads it (a chunked body has no length to check here).
 *
 * @throws ScimError 415, or 413 over `maxBytes`.
 */
export function checkDeclaredBody(headers: Headers, maxBytes: number): void {
  const length = getHeader(headers, 'content-length');
  checkBodyMediaType(headers);
  if (length !== undefined && Number(length) > maxBytes) throw scimErrors.payloadTooLarge(maxBytes);
}
