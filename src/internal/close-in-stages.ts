import type { IncomingMessage } from 'node:http';
import type { ScimResponse } from '../core/types.js';

/**
 * How long a connection answered with `Connection: close` over an unread upload stays open for
 * reading after the answer: long enough for a client to read the answer and close, as Apache's
 * lingering close allows (2 s).
 */
export const LINGER_MS = 2000;

/**
 * How many bytes of the upload such a connection reads and drops, from the answer on, before it
 * is cut off: more than a well-behaved client can have in flight when it sees the server's FIN
 * (its send buffer and the server's receive buffer, a few MiB each on loopback), far less than
 * the gigabytes an endless upload on loopback reaches in {@link LINGER_MS}.
 */
export const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Makes node close the connection of `incoming` in stages once its answer is sent, when the
 * request's body is still arriving (RFC 9112 §9.6). Node on its own closes such a socket as soon
 * as the answer is written; closing a socket with unread bytes makes the kernel send a reset,
 * and a client still writing its upload then fails its next write and can lose the answer it
 * had not read yet (a 401 or 413 seen as `EPIPE`).
 *
 * In stages: the answer, then a half-close (FIN); then the rest of the upload is read and
 * dropped until the client closes its side or {@link LINGER_MS} passes, and only then is the
 * socket destroyed. Nothing is kept: the chunks are counted and dropped. A client that ignores
 * the FIN is cut off after {@link LINGER_BYTES} or {@link LINGER_MS}, whichever comes first.
 *
 * The seam is node's `socket.destroySoon()`, which node's HTTP server calls after an answer with
 * `Connection: close`; it is replaced on this one socket only. Where a server does not call it
 * (another runtime's `node:http`), nothing changes. Held by `test/http/transport.test.ts`
 * ("reads the rest of the upload after a 401 / 413"), which fails with node's own close.
 */
export function closeInStages(incoming: IncomingMessage): void {
  const { socket } = incoming;
  if (incoming.complete || socket.destroyed) return;
  let dropped = 0;
  // A body never read starts flowing here; one the reader paused at the cap or the deadline
  // stays paused until the answer is out. The reader has settled and keeps no chunk.
  incoming.on('data', (chunk: Uint8Array) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    const cutOff = setTimeout(() => socket.destroy(), LINGER_MS);
    cutOff.unref();
    socket.once('close', () => clearTimeout(cutOff));
    incoming.resume();
  };
}

/**
 * {@link closeInStages} for `incoming` when `response` closes the connection: the core adds
 * `connection: close` to every answer that leaves body bytes unread (the head phase's refusals,
 * a 413 at the cap, a 408).
 */
export function lingerIfClosing(incoming: IncomingMessage, response: ScimResponse): void {
  if (response.headers.connection === 'close') closeInStages(incoming);
}
