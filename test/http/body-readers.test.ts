import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { BodyRead } from '../../src/internal/body-collector.js';
import { readNodeBody } from '../../src/internal/read-node-body.js';
import { readWebBody } from '../../src/internal/read-web-body.js';

const limits = (cap: number, timeoutMs = 5_000) => ({ cap, timeoutMs });
const text = (read: BodyRead): string => new TextDecoder().decode(read.body as Uint8Array);

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
