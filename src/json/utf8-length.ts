/**
 * Counts the bytes of a text encoded as UTF-8, without encoding it: what a response body
 * costs on the wire. A lone surrogate counts as the three bytes of U+FFFD, as `TextEncoder`
 * writes it.
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && isLow(text.charCodeAt(i + 1))) {
      // A pair: two code units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * Tells how many bytes `text` takes as UTF-8 when that may exceed `room`; when it cannot
 * (three bytes per code unit at most), its length in code units, counted without a walk.
 */
export function boundedUtf8Length(text: string, room: number): number {
  return text.length * 3 <= room ? text.length : utf8Length(text);
}
