/**
 * Joins body chunks into one byte array, or `undefined` for an empty body so that every
 * adapter reports "no body" the same way.
 */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array | undefined {
  if (size === 0) return undefined;
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
