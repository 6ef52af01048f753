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

/** What {@link uploadPastAnswer} saw. */
export interface UploadPastAnswer extends Pick<RawExchange, 'status' | 'headers' | 'body'> {
  /** Whether the server half-closed (FIN) after its answer while the client was still sending. */
  readonly answeredWithEnd: boolean;
  /** Bytes the client wrote after the server's FIN. */
  readonly bytesAfterEnd: number;
  /** The code of the socket error the client saw (`ECONNRESET`, `EPIPE`), if any. */
  readonly errorCode: string | undefined;
  /** Whether the connection closed before the client gave up. */
  readonly closed: boolean;
  /** Milliseconds from the server's FIN to the close, or to giving up. */
  readonly msAfterEnd: number;
}

/** How {@link uploadPastAnswer} behaves after the server's answer. */
export interface PastAnswerFeed {
  /** Sent once, right after connecting. */
  readonly request: string;
  /** Written again and again, honouring backpressure. */
  readonly repeat: Buffer;
  /**
   * After the server's FIN: write this many more bytes of `repeat`, then close, as a client does
   * whose upload was under way when the answer came; or keep writing until the server closes.
   */
  readonly afterEnd: number | 'until-closed';
  /** Wait this long between writes after the server's FIN: a client trickling on. Default 0. */
  readonly afterEndEveryMs?: number;
  /** Give up after this long. */
  readonly waitMs: number;
}

/**
 * Uploads an endless body on one half-open connection, reads the server's early answer, and goes
 * on writing after the server's FIN as `feed.afterEnd` says. A server that closes at once, with
 * the upload unread, resets the connection, and a client still writing then sees `EPIPE` or
 * `ECONNRESET` (and may lose the answer it had not read yet: RFC 9112 §9.6).
 */
export function uploadPastAnswer(origin: string, feed: PastAnswerFeed): Promise<UploadPastAnswer> {
  const { hostname, port } = new URL(origin);
  const socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true });
  const received: Buffer[] = [];
  const deadline = Date.now() + feed.waitMs;
  let endedAt: number | undefined;
  let closedAt: number | undefined;
  let errorCode: string | undefined;
  let bytesAfterEnd = 0;
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => {
      closedAt = Date.now();
      resolve();
    });
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    errorCode ??= error.code ?? error.message;
  });
  socket.on('end', () => {
    endedAt = Date.now();
  });
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const writeOne = (): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      if (!socket.write(feed.repeat)) socket.once('drain', done);
      else setImmediate(done);
      void closed.then(done);
    });
  const open = (): boolean => closedAt === undefined && errorCode === undefined;
  const pump = async (): Promise<void> => {
    socket.write(feed.request);
    while (open() && endedAt === undefined && Date.now() < deadline) await writeOne();
    const limit = feed.afterEnd === 'until-closed' ? Infinity : feed.afterEnd;
    const pause = feed.afterEndEveryMs ?? 0;
    while (open() && bytesAfterEnd < limit && Date.now() < deadline) {
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
      await writeOne();
      bytesAfterEnd += feed.repeat.length;
    }
    if (open()) socket.end();
    const gaveUp = new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, deadline - Date.now())),
    );
    await Promise.race([closed, gaveUp]);
  };
  return new Promise((resolve) => {
    socket.once('connect', () => {
      void pump().then(() => {
        const text = Buffer.concat(received).toString('latin1');
        const end = closedAt ?? Date.now();
        resolve({
          ...parse(text),
          answeredWithEnd: endedAt !== undefined,
          bytesAfterEnd,
          errorCode,
          closed: closedAt !== undefined,
          msAfterEnd: endedAt === undefined ? 0 : end - endedAt,
        });
        socket.destroy();
      });
    });
  });
}

/** What {@link continueExchange} saw. */
export interface ContinueExchange extends Pick<RawExchange, 'status' | 'headers' | 'body'> {
  /** Whether the server sent `100 Continue`, before any final response. */
  readonly continued: boolean;
  /** The status of the final response (after any `100`), when one arrived. */
  readonly finalStatus: number | undefined;
  /** Everything the server sent, as text. */
  readonly text: string;
}

/**
 * Sends `head` (which should carry `Expect: 100-continue`) and waits, as a careful client does,
 * for the server's first answer: the body is sent only after a `100 Continue`. Then waits for the
 * server to close, or until `waitMs`.
 */
export function continueExchange(
  origin: string,
  head: string,
  body: string,
  waitMs: number,
): Promise<ContinueExchange> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  const received: Buffer[] = [];
  let sent = false;
  socket.on('data', (chunk: Buffer) => {
    received.push(chunk);
    const text = Buffer.concat(received).toString('latin1');
    if (!sent && /^HTTP\/1\.1 100 [^\r]*\r\n\r\n/.test(text)) {
      sent = true;
      socket.write(body);
    }
  });
  socket.once('connect', () => socket.write(head));
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('latin1');
      const continued = /^HTTP\/1\.1 100 /.test(text);
      const final = continued ? text.slice(text.indexOf('\r\n\r\n') + 4) : text;
      const parsed = parse(final);
      resolve({ ...parsed, continued, finalStatus: parsed.status, text });
      socket.destroy();
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('close', finish).on('error', finish);
  });
}
