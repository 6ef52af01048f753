const encoder = new TextEncoder();

/** A text kept up to a number of bytes, and the size of the whole. */
export interface ClippedText {
  /** The text kept: all of it, or its first bytes (never half a character). */
  readonly text: string;
  /** The size of the whole text in UTF-8 bytes. */
  readonly bytes: number;
  /** Whether `text` is only the beginning. */
  readonly clipped: boolean;
}

/** Counts the UTF-8 bytes of a text. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * Keeps at most `maxBytes` UTF-8 bytes of `text`. The kept part is a copy, not a slice of the
 * original: V8 may keep a whole string alive for any slice of it, and the point is to let the
 * whole go.
 */
export function clipText(text: string, maxBytes: number): ClippedText {
  const bytes = utf8Bytes(text);
  if (bytes <= maxBytes) return { text, bytes, clipped: false };
  // At most 3 bytes per UTF-16 unit: `maxBytes` units always hold enough characters.
  const head = encoder.encode(text.slice(0, maxBytes));
  let end = Math.min(maxBytes, head.length);
  // Step back over continuation bytes so that no character is cut in two.
  while (end > 0 && ((head[end] ?? 0) & 0xc0) === 0x80) end--;
  return { text: Buffer.from(head.subarray(0, end)).toString('utf8'), bytes, clipped: true };
}
