// The character classes of the filter grammar, in one place for the tokenizer and the parser.
// Name characters are the one attribute-name rule's (schema/attribute-path.ts), re-exported.

export { nameEnd } from '../schema/attribute-path.js';

/** Tells whether a UTF-16 code unit is whitespace between filter tokens: space, tab, CR or LF. */
export function isFilterSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * Tells whether a UTF-16 code unit ends a word of a filter (an attribute path, an operator, a
 * keyword, a number): whitespace, a parenthesis, a bracket or a quote.
 */
export function isDelimiter(c: number): boolean {
  return isFilterSpace(c) || c === 0x28 || c === 0x29 || c === 0x5b || c === 0x5d || c === 0x22;
}

/**
 * Tells whether a UTF-16 code unit ends a value written without quotes (the dialect rule
 * `unquotedFilterValues`): whitespace, a closing parenthesis or a closing bracket.
 */
export function endsBareValue(c: number): boolean {
  return isFilterSpace(c) || c === 0x29 || c === 0x5d;
}
