// Character classes of the filter grammar, looked up in one table rather than tested by
// chains of comparisons, since the parser asks for each character of the filter. The name
// characters come from the one attribute-name rule (schema/attribute-path.ts).

import { isNameChar } from '../schema/attribute-path.js';

/** A letter: may start an attribute name or a keyword. */
export const LETTER = 1;
/** May continue an attribute name (`isNameChar`). */
export const NAME = 2;
/** A decimal digit. */
export const DIGIT = 4;
/** Whitespace between tokens. */
export const SPACE = 8;
/** Ends an attribute path: whitespace, brackets, parentheses, a quote. */
export const DELIMITER = 16;

const TABLE = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  let bits = isNameChar(c) ? NAME : 0;
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) bits |= LETTER;
  if (c >= 0x30 && c <= 0x39) bits |= DIGIT;
  TABLE[c] = bits;
}
for (const c of [0x20, 0x09, 0x0a, 0x0d]) TABLE[c] = SPACE | DELIMITER;
for (const c of [0x28, 0x29, 0x5b, 0x5d, 0x22]) TABLE[c] = DELIMITER;

/**
 * Returns the class bits of a UTF-16 code unit; 0 for anything outside ASCII and for `NaN`
 * (what `charCodeAt` answers past the end of the text).
 */
export function charClass(c: number): number {
  return c < 128 ? (TABLE[c] as number) : 0;
}
