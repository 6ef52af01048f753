import { scimErrors } from '../errors/index.js';
import type { ScimError } from '../errors/index.js';
import { endsBareValue, isDelimiter, isFilterSpace } from './char-class.js';

/**
 * What a filter token is: a word (an attribute path, an operator, a keyword, a number, or with
 * `unquotedValues` a value without quotes), a JSON string literal, one of `( ) [ ]`, or the end
 * of the text.
 */
export type FilterTokenKind = 'word' | 'string' | '(' | ')' | '[' | ']' | 'end';

/**
 * Splits a filter into tokens, one at a time: the current token is `kind`, at
 * `text.slice(start, end)` (a string's quotes included), and `advance`
 * moves to the next. Whitespace separates tokens and is not one; a word runs to the next
 * whitespace, parenthesis, bracket or quote. String literals are checked here (closing quote,
 * RFC 8259 §7 escapes), so that `JSON.parse` of an escaped one cannot fail. One tokenizer per
 * parse: it holds that parse's position.
 *
 * @see RFC 7644 §3.4.2.2
 */
export class FilterTokenizer {
  /** The filter text. */
  readonly text: string;
  /** The current token's kind. */
  kind: FilterTokenKind = 'end';
  /** Where the current token starts. */
  start = 0;
  /** Where the current token ends (exclusive). */
  end = 0;
  /** For a string: it holds a backslash escape, so its text is not its value. */
  escaped = false;

  /** Starts on the first token of `text`. */
  constructor(text: string) {
    this.text = text;
    this.advance();
  }

  /** Tells whether the current token is the word `keyword`, in any letter case. */
  isKeyword(keyword: 'and' | 'or' | 'not'): boolean {
    return (
      this.kind === 'word' &&
      this.end - this.start === keyword.length &&
      this.text.slice(this.start, this.end).toLowerCase() === keyword
    );
  }

  /** Moves to the next token. */
  advance(): void {
    const text = this.text;
    let at = this.end;
    while (isFilterSpace(text.charCodeAt(at))) at++;
    this.start = at;
    this.escaped = false;
    if (at >= text.length) return this.set('end', at);
    const c = text.charAt(at);
    switch (c) {
      case '(':
      case ')':
      case '[':
      case ']':
        return this.set(c, at + 1);
      case '"':
        return this.set('string', this.stringEnd(at));
    }
    let end = at + 1;
    while (end < text.length && !isDelimiter(text.charCodeAt(end))) end++;
    this.set('word', end);
  }

  /**
   * Moves to the next token read as a value without quotes (`unquotedValues`): a string literal
   * when it opens with a quote, else a word running to the next whitespace, `)` or `]` (so it may
   * hold quotes, `(` and `[`); `)`, `]` or the end when the value is missing.
   */
  advanceBare(): void {
    const text = this.text;
    let at = this.end;
    while (isFilterSpace(text.charCodeAt(at))) at++;
    let end = at;
    if (text.charCodeAt(at) !== 0x22 /* " */) {
      while (end < text.length && !endsBareValue(text.charCodeAt(end))) end++;
    }
    if (end === at) return this.advance();
    this.start = at;
    this.escaped = false;
    this.set('word', end);
  }

  private set(kind: FilterTokenKind, end: number): void {
    this.kind = kind;
    this.end = end;
  }

  /** Where the JSON string literal that opens at `open` ends; notes whether it holds escapes. */
  private stringEnd(open: number): number {
    const text = this.text;
    let i = open + 1;
    for (;;) {
      if (i >= text.length) throw filterError(text, 'unterminated string', open);
      const c = text.charCodeAt(i);
      if (c === 0x22 /* " */) return i + 1;
      if (c === 0x5c /* \ */) {
        this.escaped = true;
        i += escapeLength(text, i);
      } else i++;
    }
  }
}

const SIMPLE_ESCAPES = '"\\/bfnrt';

/** The length of the escape at `at` (a backslash), or a refusal when it is not one of JSON's. */
function escapeLength(text: string, at: number): number {
  const e = text.charAt(at + 1);
  if (e !== 'u') {
    if (e !== '' && SIMPLE_ESCAPES.includes(e)) return 2;
    throw filterError(text, 'invalid escape in string', at);
  }
  if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6))) {
    throw filterError(text, 'invalid \\u escape in string', at);
  }
  return 6;
}

/**
 * Builds the 400 `invalidFilter` error for a filter that fails at index `at`: the detail names
 * the character position (from 1) and what was found there.
 */
export function filterError(text: string, message: string, at: number): ScimError {
  const found =
    at >= text.length ? 'the end of the filter' : JSON.stringify(text.slice(at, at + 20));
  return scimErrors.invalidFilter(
    `Invalid filter: ${message} at character ${at + 1}, found ${found}.`,
  );
}
