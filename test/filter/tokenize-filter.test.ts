import { describe, expect, it } from 'vitest';
import { FilterTokenizer } from '../../src/filter/tokenize-filter.js';

/** Every token of `text` as `kind@start-end`, the end token included. */
function tokens(text: string, bareAfter?: number): string[] {
  const tokenizer = new FilterTokenizer(text);
  const out: string[] = [];
  for (let i = 0; ; i++) {
    out.push(`${tokenizer.kind}@${tokenizer.start}-${tokenizer.end}`);
    if (tokenizer.kind === 'end') return out;
    if (i === bareAfter) tokenizer.advanceBare();
    else tokenizer.advance();
  }
}

describe('FilterTokenizer', () => {
  it('splits a filter into words, strings and brackets with their positions', () => {
    expect(tokens('emails[type eq "wo rk"] and not(x pr)')).toEqual([
      'word@0-6',
      '[@6-7',
      'word@7-11',
      'word@12-14',
      'string@15-22',
      ']@22-23',
      'word@24-27',
      'word@28-31',
      '(@31-32',
      'word@32-33',
      'word@34-36',
      ')@36-37',
      'end@37-37',
    ]);
  });

  it('ends a word at whitespace, a bracket, a parenthesis or a quote, and nowhere else', () => {
    expect(tokens('urn:a:b:c.d\teq"x"')).toEqual([
      'word@0-11',
      'word@12-14',
      'string@14-17',
      'end@17-17',
    ]);
  });

  it('reads a value without quotes up to whitespace, ")" or "]" only when asked', () => {
    expect(tokens('(a eq x"y"(z) )', 2)).toEqual([
      '(@0-1',
      'word@1-2',
      'word@3-5',
      'word@6-12',
      ')@12-13',
      ')@14-15',
      'end@15-15',
    ]);
  });

  it('notes escapes in a string and refuses a bad one or a missing closing quote', () => {
    const escaped = new FilterTokenizer('"a\\"b"');
    expect([escaped.kind, escaped.end, escaped.escaped]).toEqual(['string', 6, true]);
    expect(new FilterTokenizer('"ab"').escaped).toBe(false);
    expect(() => new FilterTokenizer('"a\\x"')).toThrow(/invalid escape in string at character 3/);
    expect(() => new FilterTokenizer('"\\u12"')).toThrow(/invalid \\u escape/);
    expect(() => new FilterTokenizer('  "ab')).toThrow(/unterminated string at character 3/);
  });
});
