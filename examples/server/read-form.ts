import type { IncomingMessage, ServerResponse } from 'node:http';

/** The largest form body the example server's pages accept. */
export const MAX_FORM_BYTES = 4096;

/**
 * Reads a small `application/x-www-form-urlencoded` body, or has `refuse` answer (415 for
 * another type, 413 past {@link MAX_FORM_BYTES}) and resolves to undefined. An oversized body
 * is not read further: its connection closes after the answer.
 */
export function readForm(
  req: IncomingMessage,
  res: ServerResponse,
  refuse: (status: 413 | 415, extra: Record<string, string>) => void,
): Promise<URLSearchParams | undefined> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    refuse(415, {});
    return Promise.resolve(undefined);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_FORM_BYTES) return void chunks.push(chunk);
      // Answer, then stop reading: the rest of an oversized body is not worth receiving.
      req.removeAllListeners('data').pause();
      res.once('finish', () => req.socket.destroy());
      refuse(413, { connection: 'close' });
      resolve(undefined);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString())));
    req.on('error', () => resolve(undefined));
  });
}
