import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { declaresBody } from '../core/http/declared-body.js';
import type { BodyLimits } from './body-limits.js';
import { BodyCollector, type BodyRead, NO_BODY } from './body-collector.js';

/** Tells whether a request's headers announce that it has no body, so most GETs read nothing. */
export function hasNoBody(headers: IncomingHttpHeaders): boolean {
  return !declaresBody(headers);
}

/**
 * Reads a node request body up to `limits.cap` bytes within `limits.timeoutMs`. At the cap or
 * the deadline it pauses the stream and reads no more: node then stops reading the socket, and
 * the core's answer (413, 408) carries `connection: close`, so node closes the connection once
 * the answer is sent instead of draining an upload that may never end. Never rejects: a failed
 * stream settles as `aborted`. Pass a node `IncomingMessage` (it has `headers`) to skip reading
 * when the request announces no body.
 */
export function readNodeBody(
  stream: Readable & { readonly headers?: IncomingHttpHeaders },
  limits: BodyLimits,
): Promise<BodyRead> {
  if (stream.readableEnded || (stream.headers !== undefined && hasNoBody(stream.headers))) {
    return Promise.resolve(NO_BODY);
  }
  return new Promise((resolve) => {
    const collector = new BodyCollector(limits, resolve, () => stream.pause());
    // Listeners stay attached once settled and do nothing: removing them would need named
    // closures, and under tsx every named closure costs a `__name` call per request.
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
