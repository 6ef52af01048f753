import fc from 'fast-check';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/internal/body-budget.js';
import type { BodyRead } from '../../src/internal/body-collector.js';
import { readNodeBody } from '../../src/internal/read-node-body.js';
import { readWebBody } from '../../src/internal/read-web-body.js';

const limits = (cap: number, timeoutMs = 5_000) => ({
  cap,
  timeoutMs,
  budget: new BodyBudget(Number.MAX_SAFE_INTEGER),
});
const text = (read: BodyRead): string => new TextDecoder().decode(read.body as Uint8Array);
// A read as the core sees it: the bytes (a Buffer or a plain Uint8Array alike) and the end.
const bytesOf = (read: BodyRead) => ({
  end: read.end,
  bytes: read.body === undefined ? undefined : Array.from(read.body as Uint8Array),
});

function webStream(chunks: readonly string[], onPull?: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      onPull?.();
      const chunk = chunks[i++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(chunk));
    },
  });
}

describe('readNodeBody', () => {
  it('settles as aborted when the stream fails, so an aborted upload never reaches a handler', async () => {
    const stream = new PassThrough();
    const read = readNodeBody(stream, limits(100));
    stream.write('{"a"');
    stream.destroy(new Error('aborted'));
    expect(await read).toEqual({ body: undefined, end: 'aborted' });
  });

  it('settles as cut at the cap and reads no further', async () => {
    const stream = new PassThrough({ highWaterMark: 4 });
    const read = readNodeBody(stream, limits(8));
    for (const part of ['abcd', 'efgh', 'ijkl', 'mnop']) stream.write(part);
    const result = await read;
    expect(result.end).toBe('cut');
    expect(text(result)).toBe('abcdefgh');
    expect(stream.isPaused()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    // What is left stays in the stream's buffer, unread: nothing drains it.
    expect(stream.readableLength).toBeGreaterThan(0);
  });

  it('settles as timeout when the whole body does not arrive in time, keeping no bytes', async () => {
    const stream = new PassThrough();
    const started = Date.now();
    const read = readNodeBody(stream, limits(100, 50));
    stream.write('{"userName":');
    expect(await read).toEqual({ body: undefined, end: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(stream.isPaused()).toBe(true);
  });

  it('skips reading a request that announces no body', async () => {
    const stream = Object.assign(new PassThrough(), { headers: { 'content-length': '0' } });
    expect(await readNodeBody(stream, limits(8))).toEqual({ body: undefined, end: 'complete' });
  });
});

// A stream as node:http hands one out: the body's bytes buffered, and the head's
// `content-length` (`announced`; `undefined`: a bare stream with no headers, which only the
// plain read reads; `ended`: the end pushed too).
function receivedStream(
  chunks: readonly Uint8Array[],
  announced: number | undefined,
  ended = true,
) {
  const stream =
    announced === undefined
      ? new Readable({ read() {} })
      : Object.assign(new Readable({ read() {} }), {
          headers: { 'content-length': String(announced) },
        });
  for (const chunk of chunks) stream.push(chunk);
  if (ended) stream.push(null);
  return stream;
}
const sizeOf = (chunks: readonly Uint8Array[]) => chunks.reduce((sum, c) => sum + c.length, 0);

// Serves one request, reading its body with readNodeBody from the 'request' event, as the
// adapters do; answers with the read and whether the read attached a `data` listener.
async function readOverHttp(parts: readonly string[], cap = 1 << 20) {
  let seen: { read: BodyRead; listened: boolean } | undefined;
  const server = createServer((req: IncomingMessage, res) => {
    void readNodeBody(req, limits(cap)).then((read) => {
      seen = { read, listened: req.listenerCount('data') > 0 };
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const length = parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
  await new Promise<void>((resolve, reject) => {
    const req = request(
      { port, host: '127.0.0.1', method: 'POST', headers: { 'content-length': length } },
      (res) => res.resume().on('end', resolve),
    );
    req.on('error', reject);
    // One part goes with the head, in one packet; more parts go after the head, each after a
    // pause, so that they arrive in packets of their own.
    if (parts.length === 1) {
      req.end(parts[0]);
      return;
    }
    req.flushHeaders();
    let at = 0;
    const next = (): void => {
      const part = parts[at++];
      if (part === undefined) req.end();
      else setTimeout(() => (req.write(part), next()), 30);
    };
    next();
  });
  await new Promise((resolve) => server.close(resolve));
  return seen as { read: BodyRead; listened: boolean };
}

describe('readNodeBody: a body received whole is taken at once', () => {
  it('reads a small body that came with its head from the buffer, with no data listener', async () => {
    const body = '{"userName":"bjensen@example.com","active":true}';
    const { read, listened } = await readOverHttp([body]);
    expect(read.end).toBe('complete');
    expect(text(read)).toBe(body);
    expect(listened).toBe(false);
  });

  it('reads a body that arrives in parts as it comes, with the same result', async () => {
    const { read, listened } = await readOverHttp(['{"userName":', '"bjensen@example.com"}']);
    expect(read.end).toBe('complete');
    expect(text(read)).toBe('{"userName":"bjensen@example.com"}');
    expect(listened).toBe(true);
  });

  it('leaves a body at or over the cap to the plain read, which cuts it', async () => {
    const { read, listened } = await readOverHttp(['0123456789abcdef'], 8);
    expect(read.end).toBe('cut');
    expect(text(read).startsWith('01234567')).toBe(true);
    expect(listened).toBe(true);
  });

  it('gives what the plain read gives, for any body, split and capped any way', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { maxLength: 5 }),
        fc.integer({ min: 1, max: 150 }),
        async (chunks, cap) => {
          const taken = await readNodeBody(receivedStream(chunks, sizeOf(chunks)), limits(cap));
          const plain = await readNodeBody(receivedStream(chunks, undefined), limits(cap));
          expect(bytesOf(taken)).toEqual(bytesOf(plain));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('takes the announced bytes before the end is parsed, and the stream still ends', async () => {
    const stream = receivedStream([Buffer.from('{"a":'), Buffer.from('1}')], 7, false);
    const read = await readNodeBody(stream, limits(100));
    expect(bytesOf(read)).toEqual({ end: 'complete', bytes: Array.from(Buffer.from('{"a":1}')) });
    const ended = new Promise((resolve) => stream.once('end', resolve));
    stream.push(null);
    await ended;
  });

  it('does not take a buffer shorter than the announced length as the whole body', async () => {
    const stream = receivedStream([new TextEncoder().encode('{"a":1}')], 20);
    const read = await readNodeBody(stream, limits(100, 50));
    expect(bytesOf(read)).toEqual({ end: 'complete', bytes: Array.from(Buffer.from('{"a":1}')) });
    // Read as it came, by the plain read's listener.
    expect(stream.listenerCount('data')).toBe(1);
  });
});

describe('readWebBody', () => {
  it('reads a body whole and reports an empty one as no body', async () => {
    const whole = await readWebBody(webStream(['ab', 'cd']), limits(100));
    expect(whole.end).toBe('complete');
    expect(text(whole)).toBe('abcd');
    expect(await readWebBody(webStream([]), limits(100))).toEqual({
      body: undefined,
      end: 'complete',
    });
  });

  it('settles as cut at the cap and pulls no further', async () => {
    let pulls = 0;
    const read = await readWebBody(
      webStream(['abcd', 'efgh', 'ijkl', 'mnop'], () => pulls++),
      limits(6),
    );
    expect(read.end).toBe('cut');
    expect(text(read)).toBe('abcdefgh');
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Two chunks read, at most one more pulled into the stream's queue: never the whole body.
    expect(pulls).toBeLessThanOrEqual(3);
  });

  it('settles as timeout when the stream stalls, and as aborted when it fails', async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"a":'));
      },
    });
    expect(await readWebBody(stalled, limits(100, 50))).toEqual({
      body: undefined,
      end: 'timeout',
    });
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('reset'));
      },
    });
    expect(await readWebBody(failing, limits(100))).toEqual({ body: undefined, end: 'aborted' });
  });
});
