import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { concatBytes } from './concat-bytes.js';

// RFC 9112 §6.3: an HTTP/1.1 request without either header has no body, so most GETs skip
// the stream machinery entirely.
function announcesNoBody(headers: IncomingHttpHeaders): boolean {
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
  if (stream.readableEnded || (stream.headers !== undefined && announcesNoBody(stream.headers))) {
    return Promise.resolve(undefined);
  }
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const finish = (): void => {
      stream.off('data', onData).off('end', finish).off('error', onError);
      resolve(concatBytes(chunks, size));
    };
    const onError = (error: Error): void => {
      stream.off('data', onData).off('end', finish);
      reject(error);
    };
    const onData = (chunk: Uint8Array | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.length;
      if (size < cap) return;
      finish();
      // Without an error listener a late socket error would crash the process.
      stream.on('error', () => undefined).resume();
    };
    stream.on('data', onData).on('end', finish).on('error', onError);
  });
}
