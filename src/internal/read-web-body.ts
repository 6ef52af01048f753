import { concatBytes } from './concat-bytes.js';

/**
 * Reads a Web stream body up to `cap` bytes. Past the cap it drains the rest in the background
 * instead of cancelling, because cancelling a stream bridged from node destroys the socket the
 * 413 answer has to travel on.
 */
export async function readWebBody(
  body: ReadableStream<Uint8Array> | null,
  cap: number,
): Promise<Uint8Array | undefined> {
  if (body === null) return undefined;
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= cap) {
      void drain(reader);
      break;
    }
  }
  return concatBytes(chunks, size);
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  try {
    while (!(await reader.read()).done);
  } catch {
    // The client went away; nothing is left to drain.
  }
}
