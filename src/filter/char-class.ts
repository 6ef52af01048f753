// Character classes of the filter grammar, looked up in one table rather than tested by
// chains of comparisons, since the parser asks for each character of the filter.

/** A letter: may start an attribute name or a keyword. */
export const LETTER = 1;
/** May continue an attribute name (RFC 7644 nameChar, plus `$` for `$ref`). */
export const NAME = 2;
/** A decimal digit. */
export const DIGIT = 4;
/** Whitespace between tokens. */
export const SPACE = 8;
/** Ends an attribute path: whitespace, brackets, parentheses, a quote. */
export const DELIMITER = 16;

const TABLE = new Uint8Array(128);
for (let c = 0x41; c <= 0x5a; c++) TABLE[c] = LETTER | NAME;
for (let c = 0x61; c <= 0x7a; c++) TABLE[c] = LETTER | NAME;
for (let c = 0x30; c <= 0x39; c++) TABLE[c] = DIGIT | NAME;
for (const c of [0x2d, 0x5f, 0x24]) TABLE[c] = NAME;
for (const c of [0x20, 0x09, 0x0a, 0x0d]) TABLE[c] = SPACE | DELIMITER;
for (const c of [0x28, 0x29, 0x5b, 0x5d, 0x22]) TABLE[c] = DELIMITER;

/**
 * Returns the class bits of a UTF-16 code unit; 0 for anything outside ASCII and for `NaN`
 * (what `charCodeAt` answers past the end of the text).
 */
export function charClass(c: number): number {
  return c < 128 ? (TABLE[c] as number) : 0;
}
