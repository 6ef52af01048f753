import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readNodeBody } from '../../src/internal/read-node-body.js';
import { readWebBody } from '../../src/internal/read-web-body.js';

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
  it('rejects when the stream fails, so an aborted upload never reaches the core', async () => {
    const stream = new PassThrough();
    const read = readNodeBody(stream, 100);
    stream.write('{"a"');
    stream.destroy(new Error('aborted'));
    await expect(read).rejects.toThrow('aborted');
  });

  it('stops collecting at the cap and drains the rest', async () => {
    const stream = new PassThrough({ highWaterMark: 4 });
    const read = readNodeBody(stream, 8);
    for (const part of ['abcd', 'efgh', 'ijkl', 'mnop']) stream.write(part);
    stream.end();
    expect(new TextDecoder().decode(await read)).toBe('abcdefgh');
    await new Promise((resolve) => stream.on('end', resolve));
  });

  it('skips reading a request that announces no body', async () => {
    const stream = Object.assign(new PassThrough(), { headers: { 'content-length': '0' } });
    await expect(readNodeBody(stream, 8)).resolves.toBeUndefined();
  });
});

describe('readWebBody', () => {
  it('reads a body whole and reports no body as undefined', async () => {
    expect(new TextDecoder().decode(await readWebBody(webStream(['ab', 'cd']), 100))).toBe('abcd');
    expect(await readWebBody(null, 100)).toBeUndefined();
    expect(await readWebBody(webStream([]), 100)).toBeUndefined();
  });

  it('returns at the cap and drains the rest in the background', async () => {
    let pulls = 0;
    const body = await readWebBody(
      webStream(['abcd', 'efgh', 'ijkl', 'mnop'], () => pulls++),
      6,
    );
    expect(new TextDecoder().decode(body)).toBe('abcdefgh');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pulls).toBe(5);
  });
});
