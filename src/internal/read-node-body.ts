import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { concatBytes } from './concat-bytes.js';

/**
 * Tells whether a request's headers announce that it has no body. RFC 9112 §6.3: an HTTP/1.1 request
 * without `Content-Length` or `Transfer-Encoding` has none, so most GETs skip the stream
 * machinery entirely.
 */
export function hasNoBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return (length === undefined || length === '0') && headers['transfer-encoding'] === undefined;
}

/**
 * Reads a node request body up to `cap` bytes. Past the cap it stops collecting and lets the
 * rest drain unread, so the connection stays usable and the core can answer 413 at once.
 * Resolves to `undefined` for an empty body or a stream another reader already consumed. Pass a
 * node `IncomingMessage` (it has `headers`) to skip reading when the request announces no body.
 */
export function readNodeBody(
  stream: Readable & { readonly headers?: IncomingHttpHeaders },
  cap: number,
): Promise<Uint8Array | undefined> {
  if (stream.readableEnded || (stream.headers !== undefined && hasNoBody(stream.headers))) {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    // Listeners stay attached once settled and do nothing: removing them would need named
    // closures, and under tsx every named closure costs a `__name` call per request.
    let settled = false;
    stream
      .on('data', (chunk: Uint8Array | string) => {
        if (settled) return;
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        chunks.push(bytes);
        size += bytes.length;
        if (size < cap) return;
        settled = true;
        resolve(concatBytes(chunks, size));
        // The rest drains unread; the error listener below keeps a late socket error quiet.
        stream.resume();
      })
      .on('end', () => {
        if (settled) return;
        settled = true;
        resolve(concatBytes(chunks, size));
      })
      .on('error', (error: Error) => {
        if (settled) return;
        settled = true;
        reject(error);
      });
  });
}
