import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Makes `server` send `100 Continue` only when a request's body is first read, instead of at
 * once. `node:http` answers `Expect: 100-continue` with `100 Continue` before any listener runs
 * unless a `checkContinue` listener is installed; this installs one that hands the request to
 * the server's usual `request` listeners (a `scimNode` listener, an Express or Hono app,
 * Fastify) and lets the first read of the body send the `100`. scimkit reads a body only after
 * it has admitted the request from its headers, so a wrong or missing key, a 429, a 413 from
 * `Content-Length` or a 415 are answered without `100 Continue`, and the client never sends the
 * body. Routes of other code on the same server get their `100` when they read the body; a route
 * that answers without reading it sends none, as RFC 9110 §10.1.1 allows. Installing it twice is
 * harmless; the server must have no other `checkContinue` listener.
 *
 * @param server - the `node:http` or `node:https` server (Fastify: `app.server`).
 * @returns `server`, for chaining.
 * @see RFC 9110 §10.1.1
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { deferContinue, scimNode } from 'scimkit/node';
 *
 * deferContinue(createServer(scimNode(scim))).listen(8080);
 * ```
 */
export function deferContinue<S extends Server>(server: S): S {
  if (!server.listeners('checkContinue').includes(continueOnRead))
    server.on('checkContinue', continueOnRead);
  return server;
}

// A module function, not a closure per server, so that `deferContinue` can tell it is installed.
function continueOnRead(this: Server, req: IncomingMessage, res: ServerResponse): void {
  // Every way of reading a stream (`data` listeners, `read()`, `pipe`, async iteration,
  // `Readable.toWeb`) asks `_read` for more: its first call is the first read of the body.
  const read = req._read;
  req._read = function readAfterContinue(size: number): void {
    req._read = read;
    // An answer already begun (a 401 whose upload a linger drains) told the client not to
    // send: a `100` after it would be read as a second response.
    if (!res.headersSent) res.writeContinue();
    read.call(req, size);
  };
  this.emit('request', req, res);
}
