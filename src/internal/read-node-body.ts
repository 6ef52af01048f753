import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { declaresBody } from '../core/http/declared-body.js';
import type { BodyLimits } from './body-limits.js';
import { BodyCollector, type BodyRead, NO_BODY } from './body-collector.js';
import { concatBytes } from './concat-bytes.js';

/** Tells whether a request's headers announce that it has no body, so most GETs read nothing. */
export function hasNoBody(headers: IncomingHttpHeaders): boolean {
  return !declaresBody(headers);
}

/** A node request body stream: a `Readable`, with the headers of an `IncomingMessage`. */
type NodeBodyStream = Readable & { readonly headers?: IncomingHttpHeaders };

/**
 * Reads a node request body up to `limits.cap` bytes within `limits.timeoutMs`. At the cap or
 * the deadline it pauses the stream and reads no more: node then stops reading the socket, and
 * the core's answer (413, 408) carries `connection: close`, so node closes the connection once
 * the answer is sent instead of draining an upload that may never end. Never rejects: a failed
 * stream settles as `aborted`. Pass a node `IncomingMessage` (it has `headers`) to skip reading
 * when the request announces no body.
 *
 * The read starts a microtask later: by then node has parsed whatever arrived with the request's
 * head, and a body received whole is taken at once (see {@link receivedWhole}).
 */
export function readNodeBody(stream: NodeBodyStream, limits: BodyLimits): Promise<BodyRead> {
  if (stream.readableEnded || (stream.headers !== undefined && hasNoBody(stream.headers))) {
    return Promise.resolve(NO_BODY);
  }
  return Promise.resolve(stream).then(
    (received) => receivedWhole(received, limits) ?? collectBody(received, limits),
  );
}

/**
 * The body of a request whose announced `Content-Length` is all in the stream's buffer already,
 * taken in one `read()`: no timer, no listeners, no `data` events. A small body mostly arrives
 * in the same packet as its head, and node has parsed both by the time the read starts. The
 * stream is then resumed, so that it ends as a read to the end does (`end`, then `close`).
 * Returns `undefined`, for the plain read of {@link collectBody}, when the request announced no
 * length or more is still to come, when it is at or over the cap (the plain read cuts it), or
 * when the stream is flowing, destroyed or partly read already. Held to the plain read by
 * `test/http/body-readers.test.ts`. The plain read alone would make every PUT or PATCH through the
 * node adapter allocate more (`bench/http/allocations.ts` measures a request's allocations).
 */
function receivedWhole(stream: NodeBodyStream, limits: BodyLimits): BodyRead | undefined {
  const size = stream.readableLength;
  if (
    stream.headers?.['content-length'] !== String(size) ||
    size === 0 ||
    size >= limits.cap ||
    stream.destroyed ||
    stream.readableFlowing === true ||
    stream.readableDidRead
  ) {
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let taken = 0;
  for (let chunk: unknown = stream.read(); chunk !== null; chunk = stream.read()) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
    chunks.push(bytes);
    taken += bytes.length;
  }
  stream.resume();
  return { body: concatBytes(chunks, taken), end: 'complete' };
}

// The plain read: every chunk as it comes, under the cap and the deadline.
function collectBody(stream: NodeBodyStream, limits: BodyLimits): Promise<BodyRead> {
  if (stream.destroyed) {
    // Gone before the read started (a client that went away). Its `error`, if still to come,
    // has nothing left to settle, but must not go unhandled.
    stream.on('error', ignore);
    return Promise.resolve({ body: undefined, end: 'aborted' });
  }
  return new Promise((resolve) => {
    const collector = new BodyCollector(limits, resolve, () => stream.pause());
    // Listeners stay attached once settled and do nothing (the collector settles once); they
    // go with the request, which nothing holds once it is answered.
    stream
      .on('data', (chunk: Uint8Array | string) => {
        collector.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      })
      .on('end', () => collector.finish('complete'))
      // A client that goes away mid-body: `close` without `end`, or an `error`.
      .on('close', () => collector.finish('aborted'))
      .on('error', () => collector.finish('aborted'));
  });
}

function ignore(): void {}
