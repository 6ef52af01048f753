import { connect } from 'node:net';

/** What a raw HTTP/1.1 exchange showed from the client's side. */
export interface RawExchange {
  /** Everything the server sent, as text. */
  readonly text: string;
  /** The status code of the first response, when one arrived. */
  readonly status: number | undefined;
  /** The first response's headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The first response's body (after the blank line), as text. */
  readonly body: string;
  /** Bytes of `repeat` the client's socket accepted before the exchange ended. */
  readonly repeatedBytes: number;
  /** Whether the server ended the connection (FIN or reset) before the client gave up. */
  readonly closedByServer: boolean;
  /** Milliseconds from connecting until the server closed, or until the client gave up. */
  readonly ms: number;
}

/** How {@link rawExchange} feeds the connection. */
export interface RawFeed {
  /** Sent once, right after connecting: the request line, headers and any body prefix. */
  readonly request: string;
  /** Written again and again after `request`, honouring backpressure, until the server closes. */
  readonly repeat?: Buffer;
  /** Stop writing `repeat` after this many bytes. Default 64 MiB. */
  readonly budgetBytes?: number;
  /** Give up waiting for the server to close after this long. */
  readonly waitMs: number;
}

function parse(text: string): Pick<RawExchange, 'status' | 'headers' | 'body'> {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  return {
    status: status === undefined ? undefined : Number(status),
    headers,
    body: split < 0 ? '' : text.slice(split + 4),
  };
}

/**
 * Opens one TCP connection to `origin`, sends `feed.request` as it is, then keeps writing
 * `feed.repeat` (if any) until the server closes the connection, the byte budget runs out or
 * `feed.waitMs` passes. Measures what the client managed to write, so a test can tell a server
 * that stops reading from one that drains forever.
 */
export function rawExchange(origin: string, feed: RawFeed): Promise<RawExchange> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  const started = Date.now();
  const received: Buffer[] = [];
  let closedAt: number | undefined;
  const closed = new Promise<void>((resolve) => {
    const mark = (): void => {
      closedAt ??= Date.now();
      resolve();
    };
    socket.on('end', mark).on('close', mark).on('error', mark);
  });
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  let repeatedBytes = 0;
  const budget = feed.budgetBytes ?? 64 * 1024 * 1024;
  const deadline = started + feed.waitMs;
  const pump = async (): Promise<void> => {
    socket.write(feed.request);
    const { repeat } = feed;
    if (repeat === undefined) return;
    while (closedAt === undefined && repeatedBytes < budget && Date.now() < deadline) {
      const flushed = socket.write(repeat);
      repeatedBytes += repeat.length;
      if (!flushed) {
        await Promise.race([
          new Promise((resolve) => socket.once('drain', resolve)),
          closed,
          new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now()))),
        ]);
      }
    }
  };
  const gaveUp = new Promise<void>((resolve) =>
    setTimeout(resolve, Math.max(0, deadline - Date.now())),
  );
  return new Promise((resolve) => {
    socket.once('connect', () => {
      void pump()
        .then(() => Promise.race([closed, gaveUp]))
        .then(() => {
          const text = Buffer.concat(received).toString('latin1');
          resolve({
            text,
            ...parse(text),
            repeatedBytes,
            closedByServer: closedAt !== undefined,
            ms: (closedAt ?? Date.now()) - started,
          });
          socket.destroy();
        });
    });
  });
}

/** One chunk of a chunked transfer coding carrying `size` bytes of `x`. */
export function chunkOf(size: number): Buffer {
  return Buffer.from(`${size.toString(16)}\r\n${'x'.repeat(size)}\r\n`);
}
