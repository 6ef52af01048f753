import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often shutdown looks for connections whose request has finished meanwhile. */
const SWEEP_MS = 25;

/** A server's connections, followed so that shutdown can wait for exactly the busy ones. */
export interface ConnectionTracker {
  /** Notes that a connection has sent a request; call it first for every request. */
  seen(req: IncomingMessage): void;
  /**
   * Stops accepting connections, closes every connection with no request in flight at once
   * and each other one as soon as its request is answered, and resolves when all are closed,
   * or after `graceMs`, when it closes the ones still open.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * Follows the connections of `server`. node's own `closeIdleConnections` closes a keep-alive
 * connection between requests, but not one that has not sent a request yet, so a client that
 * connects and says nothing would hold shutdown for the whole grace period. The work per
 * request is one WeakSet insertion: this sits on the benchmarked path.
 */
export function trackConnections(server: Server): ConnectionTracker {
  const open = new Set<Socket>();
  const withRequest = new WeakSet<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return {
    seen: (req) => void withRequest.add(req.socket),
    async drain(graceMs) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of open) if (!withRequest.has(socket)) socket.destroy();
      // A connection whose request is answered during the wait goes idle: close it then.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      try {
        await Promise.race([closed, late]);
      } finally {
        clearInterval(sweep);
        clearTimeout(timer);
      }
      server.closeAllConnections();
      await closed;
    },
  };
}
