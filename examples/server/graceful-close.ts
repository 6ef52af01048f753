import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** A server's connections, followed so that shutdown can wait for exactly the busy ones. */
export interface ConnectionTracker {
  /**
   * Stops accepting connections, closes every connection with no request in flight at once,
   * closes each other one as soon as its last response is sent, and resolves when all are
   * closed, or after `graceMs`, when it closes the ones still open.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * Follows the connections of `server` and how many requests each has in flight. node's own
 * `closeIdleConnections` misses a connection that has not sent a request yet, so a client
 * that connects and says nothing would hold shutdown for the whole grace period.
 */
export function trackConnections(server: Server): ConnectionTracker {
  const inFlight = new Map<Socket, number>();
  let draining = false;
  server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    if (draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1;
      inFlight.set(socket, left);
      // end(), not destroy(): the response's last bytes are still on their way.
      if (draining && left === 0) socket.end();
    });
  });
  return {
    async drain(graceMs) {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const [socket, count] of inFlight) if (count === 0) socket.destroy();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      try {
        await Promise.race([closed, late]);
      } finally {
        clearTimeout(timer);
      }
      for (const socket of inFlight.keys()) socket.destroy();
      await closed;
    },
  };
}
