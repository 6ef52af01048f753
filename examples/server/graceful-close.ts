import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';
import { refuse, retryLater } from './refuse.js';

/**
 * How long shutdown waits on a connection with no request in flight for one to arrive before
 * closing it: a request the client sent just before the shutdown is still on its way, or in
 * the kernel's buffer while the event loop was busy.
 */
export const QUIET_MS = 100;
/**
 * How long a closed connection is read (and what arrives dropped) until the client closes its
 * side, so that the kernel sends no reset that could destroy the last answer unread.
 */
export const LINGER_MS = 2000;
/** How long a connection past the cap may stay silent before it is closed. */
const EXCESS_IDLE_MS = 1000;

const PAST_THE_CAP = retryLater(
  503,
  'The server has as many connections open as it takes; send the request again shortly.',
);

/** A server's connections, followed for the connection cap and a graceful shutdown. */
export interface ConnectionTracker {
  /**
   * Decides on a request; call it first for every request. Returns false when the request
   * must not be served: its connection is past the cap (answered 503 here), or shutdown has
   * already answered the connection's last request (the request is dropped unread, never run).
   */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
  /**
   * Stops accepting connections and answers every request that has arrived, the last one on
   * each connection with `Connection: close`; closes each connection once its last answer is
   * out (a silent one after {@link QUIET_MS}). Resolves when all are closed, or after
   * `graceMs`, when it destroys the ones still open.
   */
  drain(graceMs: number): Promise<void>;
}

/**
 * Follows the connections of `server`, refusing those past `maxConnections` with a SCIM 503.
 * The work per request is one WeakSet lookup and one WeakMap insertion: this sits on the
 * benchmarked path. Everything else happens at shutdown.
 */
export function trackConnections(server: Server, maxConnections = Infinity): ConnectionTracker {
  const open = new Set<Socket>();
  const excess = new WeakSet<Socket>();
  /** Each connection's newest response. */
  const latest = new WeakMap<Socket, ServerResponse>();
  let counted = 0;
  let shutdown: Shutdown | undefined;
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    if (counted >= maxConnections) {
      excess.add(socket);
      socket.setTimeout(EXCESS_IDLE_MS);
      socket.once('close', () => open.delete(socket));
      return;
    }
    counted++;
    socket.once('close', () => {
      open.delete(socket);
      counted--;
    });
    shutdown?.settle(socket);
  });
  return {
    admit(req, res) {
      if (excess.has(req.socket)) {
        refuse(req, res, PAST_THE_CAP);
        return false;
      }
      if (shutdown) return shutdown.admit(req, res);
      latest.set(req.socket, res);
      return true;
    },
    async drain(graceMs) {
      shutdown = new Shutdown(latest);
      for (const socket of open) shutdown.settle(socket);
      // Take the connections the kernel has completed meanwhile before the listener goes: its
      // backlog is reset when it closes. (node's own `server.close()` would also close every
      // connection without a request at once, losing a request not read yet.)
      await new Promise((resolve) => setImmediate(resolve));
      const listening = new Promise<void>((resolve) =>
        NetServer.prototype.close.call(server, () => resolve()),
      );
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      const allClosed = Promise.all([...open].map((s) => new Promise((r) => s.once('close', r))));
      await Promise.race([allClosed, late]);
      clearTimeout(timer);
      for (const socket of open) socket.destroy();
      shutdown.stop();
      await listening;
    },
  };
}

/**
 * The bytes `req` took on the wire as HTTP clients write it (`Name: value`, one space), or
 * undefined for a chunked body. It only decides whether an answer says `Connection: close`: a
 * client that wrote it otherwise gets the header one request early or late, and a request left
 * unrun behind a `Connection: close` is one the client sends again (RFC 9112 §9.3.2).
 */
function wireBytes(req: IncomingMessage): number | undefined {
  const length = req.headers['content-length'];
  if (length === undefined && req.headers['transfer-encoding'] !== undefined) return undefined;
  let bytes = `${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}\r\n\r\n`.length;
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2)
    bytes += (raw[i]?.length ?? 0) + 2 + (raw[i + 1]?.length ?? 0) + 2;
  return bytes + Number(length ?? 0);
}

/**
 * What shutdown knows of each connection, and how it closes them. An answer carries
 * `Connection: close` when nothing follows its request on the connection; a request already
 * behind it (pipelined) is answered too, and the connection closes once the last answer is out
 * and nothing more has arrived for {@link QUIET_MS}.
 */
class Shutdown {
  /** Where the next request on a connection begins, when that is known. */
  readonly #next = new WeakMap<Socket, number>();
  /** Connections closed by shutdown: nothing more is served on them. */
  readonly #done = new WeakSet<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(private readonly latest: WeakMap<Socket, ServerResponse>) {}

  /** Takes charge of a connection open when shutdown began (or accepted just before). */
  settle(socket: Socket): void {
    socket.destroySoon = () => this.#linger(socket);
    const res = this.latest.get(socket);
    // Where the connection's next request begins, taking it that a client with a request in
    // flight waits for its answer before it sends another.
    if (res === undefined || res.writableFinished) {
      this.#next.set(socket, socket.bytesRead);
      this.#quiet(socket);
    } else {
      res.once('finish', () => {
        if (this.latest.get(socket) === res) this.#next.set(socket, socket.bytesRead);
      });
      res.once('close', () => this.#quiet(socket));
    }
  }

  admit(req: IncomingMessage, res: ServerResponse): boolean {
    const { socket } = req;
    if (this.#done.has(socket)) {
      // Arrived after the connection was half-closed: left unrun for the client to send again.
      req.resume();
      return false;
    }
    // The first request on a connection begins at its first byte.
    const start = this.#next.get(socket) ?? (this.latest.has(socket) ? undefined : 0);
    this.latest.set(socket, res);
    const size = start === undefined ? undefined : wireBytes(req);
    const end = size === undefined || start === undefined ? undefined : start + size;
    // The next request on the connection, pipelined or not, begins where this one ends.
    if (end === undefined) this.#next.delete(socket);
    else this.#next.set(socket, end);
    const writeHead = res.writeHead;
    res.writeHead = ((...args: Parameters<typeof writeHead>) => {
      // Every byte read so far belongs to this request: nothing is behind it, and node closes
      // the connection once this answer is out.
      if (end !== undefined && socket.bytesRead <= end) res.shouldKeepAlive = false;
      return writeHead.apply(res, args);
    }) as typeof writeHead;
    res.once('finish', () => this.#quiet(socket));
    return true;
  }

  stop(): void {
    for (const timer of this.#timers) clearTimeout(timer);
  }

  // Closes a connection with nothing in flight once nothing has arrived on it for QUIET_MS,
  // looked at after an I/O poll (setImmediate), so that bytes that waited in the kernel while
  // the event loop was busy are read first.
  #quiet(socket: Socket): void {
    const read = socket.bytesRead;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      setImmediate(() => {
        if (socket.destroyed || this.#done.has(socket)) return;
        // A request that arrived meanwhile is answered first; its answer looks again.
        if (this.latest.get(socket)?.writableEnded === false) return;
        if (socket.bytesRead !== read) return this.#quiet(socket);
        this.#linger(socket);
      });
    }, QUIET_MS);
    this.#timers.add(timer);
  }

  // Half-closes, reads until the client closes its side, then lets the socket go.
  #linger(socket: Socket): void {
    this.#done.add(socket);
    if (socket.writable) socket.end();
    const cutOff = setTimeout(() => socket.destroy(), LINGER_MS);
    cutOff.unref();
    socket.once('close', () => clearTimeout(cutOff));
    socket.resume();
  }
}
