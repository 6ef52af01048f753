import type { BodyLimits } from './body-limits.js';
import { BodyCollector, type BodyRead } from './body-collector.js';

/**
 * Reads a Web stream body up to `limits.cap` bytes within `limits.timeoutMs`. At the cap or the
 * deadline it stops pulling, so the runtime's backpressure stops reading the socket, and the
 * core's answer carries `connection: close`. It does not cancel the stream: cancelling a
 * stream bridged from node (`@hono/node-server`) destroys the socket the 413 or 408 answer has
 * to travel on. Never rejects: a failed stream settles as `aborted`.
 */
export function readWebBody(
  body: ReadableStream<Uint8Array>,
  limits: BodyLimits,
): Promise<BodyRead> {
  return new Promise((resolve) => {
    void pump(body.getReader(), new BodyCollector(limits, resolve));
  });
}

async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  collector: BodyCollector,
): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return collector.finish('complete');
      if (!collector.push(value)) return;
    }
  } catch {
    collector.finish('aborted');
  }
}
