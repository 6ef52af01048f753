import { scimErrors } from '../errors/index.js';
import type { ScimError } from '../errors/index.js';
import { endsBareValue, isDelimiter, isFilterSpace } from './char-class.js';

/**
 * What a filter token is: a word (an attribute path, an operator, a keyword, a number, or with
 * `unquotedValues` a value without quotes), a JSON string literal, one of `( ) [ ]`, or the end
 * of the text.
 */
export type FilterTokenKind = 'word' | 'string' | '(' | ')' | '[' | ']' | 'end';

/** A token of a filter and where it lies: `text.slice(start, end)`, quotes included. */
export interface FilterToken {
  readonly kind: FilterTokenKind;
  readonly start: number;
  readonly end: number;
  /** For a string: it holds a backslash escape, so its text is not its value. */
  readonly escaped: boolean;
}

/**
 * Splits a filter into tokens, on demand, one token of lookahead. Whitespace separates tokens
 * and is not one; a word runs to the next whitespace, parenthesis, bracket or quote. String
 * literals are checked here (closing quote, RFC 8259 §7 escapes), so that `JSON.parse` of an
 * escaped one cannot fail. One tokenizer per parse: it holds that parse's position.
 *
 * @see RFC 7644 §3.4.2.2
 */
export class FilterTokenizer {
  /** The filter text. */
  readonly text: string;
  private pos = 0;
  private ahead: FilterToken | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** Returns the next token without consuming it. */
  peek(): FilterToken {
    this.ahead ??= this.scan();
    return this.ahead;
  }

  /** Returns the next token and consumes it. */
  next(): FilterToken {
    const token = this.peek();
    this.ahead = undefined;
    this.pos = token.end;
    return token;
  }

  /**
   * Returns and consumes the next token read as a value without quotes: a string literal when
   * it opens with a quote, else a word running to the next whitespace, `)` or `]` (so it may hold
   * quotes, `(` and `[`); `)`, `]` or the end when the value is missing.
   */
  nextBareValue(): FilterToken {
    this.ahead = undefined;
    const start = this.skipSpace();
    const text = this.text;
    let end = start;
    if (text.charCodeAt(start) !== 0x22 /* " */) {
      while (end < text.length && !endsBareValue(text.charCodeAt(end))) end++;
    }
    const token = end > start ? word(start, end) : this.scan();
    this.pos = token.end;
    return token;
  }

  private skipSpace(): number {
    while (isFilterSpace(this.text.charCodeAt(this.pos))) this.pos++;
    return this.pos;
  }

  private scan(): FilterToken {
    const start = this.skipSpace();
    const text = this.text;
    if (start >= text.length) return { kind: 'end', start, end: start, escaped: false };
    const c = text.charAt(start);
    switch (c) {
      case '(':
      case ')':
      case '[':
      case ']':
        return { kind: c, start, end: start + 1, escaped: false };
      case '"':
        return this.scanString(start);
    }
    let end = start + 1;
    while (end < text.length && !isDelimiter(text.charCodeAt(end))) end++;
    return word(start, end);
  }

  /** Scans a JSON string literal from its opening quote. */
  private scanString(open: number): FilterToken {
    const text = this.text;
    let escaped = false;
    let i = open + 1;
    for (;;) {
      if (i >= text.length) throw filterError(text, 'unterminated string', open);
      const c = text.charCodeAt(i);
      if (c === 0x22 /* " */) return { kind: 'string', start: open, end: i + 1, escaped };
      if (c === 0x5c /* \ */) {
        escaped = true;
        i += escapeLength(text, i);
      } else i++;
    }
  }
}

function word(start: number, end: number): FilterToken {
  return { kind: 'word', start, end, escaped: false };
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
