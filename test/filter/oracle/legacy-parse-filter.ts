// A second filter parser, apart from src/filter/parse-filter.ts, kept only as the oracle that
// test/filter/parser-agrees-with-legacy.test.ts and bench/filter/parser-ab.bench.ts compare the
// library's parser with. Not part of the library: it keeps its state at module
// level, which the library does not allow.
import { scimErrors } from '../../../src/errors/index.js';
import type { ScimError } from '../../../src/errors/index.js';
import { isClientText } from '../../../src/json/client-text.js';
import type {
  AttributePath,
  CompareFilter,
  CompareOperator,
  Filter,
  FilterValue,
} from '../../../src/filter/ast.js';
import { isNameChar, nameEnd, readAttributePath } from '../../../src/schema/attribute-path.js';

/** Limits of {@link parseFilter}. */
interface ParseFilterOptions {
  /** Longest filter accepted, in characters. Default {@link DEFAULT_MAX_FILTER_LENGTH}. */
  readonly maxLength?: number;
  /**
   * Deepest nesting accepted: each parenthesised group, `not (...)` and `[...]` is one level.
   * Default {@link DEFAULT_MAX_FILTER_DEPTH}.
   */
  readonly maxDepth?: number;
  /**
   * Reads a value without quotes (`userName sw O`, `meta.created gt 2015-10-10T14:38:21`) as a
   * string: the dialect rule `unquotedFilterValues` (Microsoft's reference tests send them).
   * `true`, `false`, `null` and JSON numbers keep their meaning. Default `false` (RFC 7644).
   */
  readonly unquotedValues?: boolean;
}

/** The longest filter {@link parseFilter} accepts unless told otherwise, in characters. */
const DEFAULT_MAX_FILTER_LENGTH = 4096;
/** The deepest nesting {@link parseFilter} accepts unless told otherwise. */
const DEFAULT_MAX_FILTER_DEPTH = 32;

// Parser state lives at module level: parsing is synchronous and never re-entrant, and this
// spares an allocation per call. parseFilter resets all of it before each parse.
let src = '';
let pos = 0;
let depth = 0;
let maxDepth = DEFAULT_MAX_FILTER_DEPTH;
let inBrackets = false;
let unquoted = false;
/** Position of the next backslash at or after the current string literal; -1: none left. */
let nextBackslash = 0;

/**
 * Parses a filter expression into a {@link Filter}: the full grammar of RFC 7644 §3.4.2.2,
 * operators, keywords and attribute names in any letter case. Also accepts the form Entra ID
 * sends, `emails[type eq "work"].value eq "x"`, read as `emails[type eq "work" and value eq "x"]`.
 *
 * @throws ScimError 400 `invalidFilter` when the text is not a filter (the detail gives the
 *   character position), is longer than `maxLength` or nests deeper than `maxDepth`.
 * @see RFC 7644 §3.4.2.2
 * @example
 * ```ts
 * parseFilter('emails[type eq "work"] and not (title pr)');
 * ```
 */
export function legacyParseFilter(text: string, options?: ParseFilterOptions): Filter {
  if (typeof text !== 'string') throw scimErrors.invalidFilter('The filter must be a string.');
  const maxLength = options?.maxLength ?? DEFAULT_MAX_FILTER_LENGTH;
  if (text.length > maxLength) {
    throw scimErrors.invalidFilter(
      `The filter is ${text.length} characters long; the limit is ${maxLength}.`,
    );
  }
  src = text;
  pos = 0;
  depth = 0;
  maxDepth = options?.maxDepth ?? DEFAULT_MAX_FILTER_DEPTH;
  inBrackets = false;
  unquoted = options?.unquotedValues === true;
  nextBackslash = 0;
  try {
    skipSpace();
    if (pos >= src.length) throw fail('the filter is empty');
    const filter = parseOr();
    if (pos < src.length) throw fail('expected "and", "or" or the end of the filter');
    return filter;
  } finally {
    src = '';
  }
}

function parseOr(): Filter {
  let left = parseAnd();
  while (keywordAhead('or')) {
    pos += 2;
    left = { kind: 'or', left, right: parseAnd() };
  }
  return left;
}

function parseAnd(): Filter {
  let left = parseTerm();
  while (keywordAhead('and')) {
    pos += 3;
    left = { kind: 'and', left, right: parseTerm() };
  }
  return left;
}

function parseTerm(): Filter {
  skipSpace();
  const c = src.charCodeAt(pos);
  if (c === 0x28 /* ( */) {
    pos++;
    return parseGroup();
  }
  if (keywordAt(pos, 'not')) {
    const save = pos;
    pos += 3;
    skipSpace();
    if (src.charCodeAt(pos) === 0x28) {
      pos++;
      return { kind: 'not', filter: parseGroup() };
    }
    pos = save; // an attribute that happens to be named "not"
  }
  return parseAttributeExpression();
}

/** Parses what follows an opening parenthesis, up to and including its closing one. */
function parseGroup(): Filter {
  enter();
  const inner = parseOr();
  skipSpace();
  if (src.charCodeAt(pos) !== 0x29 /* ) */) throw fail('expected ")"');
  pos++;
  depth--;
  return inner;
}

function parseAttributeExpression(): Filter {
  const path = parseAttributePath();
  if (src.charCodeAt(pos) === 0x5b /* [ */) {
    if (inBrackets) throw fail('value paths cannot be nested');
    pos++;
    enter();
    inBrackets = true;
    const inner = parseOr();
    skipSpace();
    if (src.charCodeAt(pos) !== 0x5d /* ] */) throw fail('expected "]"');
    pos++;
    inBrackets = false;
    depth--;
    if (src.charCodeAt(pos) !== 0x2e /* . */) return { kind: 'valuePath', path, filter: inner };
    // Entra ID's `emails[type eq "work"].value eq "x"`: the same as one bracket filter.
    pos++;
    const sub = readName('a sub-attribute name');
    const tail = parseOperation({ attribute: sub });
    return { kind: 'valuePath', path, filter: { kind: 'and', left: inner, right: tail } };
  }
  return parseOperation(path);
}

function parseOperation(path: AttributePath): Filter {
  skipSpace();
  let end = pos;
  while (isLetter(src.charCodeAt(end))) end++;
  if (end - pos !== 2 || isName(src.charCodeAt(end))) {
    throw fail('expected an operator (eq, ne, co, sw, ew, gt, lt, ge, le or pr)');
  }
  const op = operatorOf(src.charCodeAt(pos) | 0x20, src.charCodeAt(pos + 1) | 0x20);
  if (op === undefined) {
    throw fail('expected an operator (eq, ne, co, sw, ew, gt, lt, ge, le or pr)');
  }
  pos = end;
  if (op === 'pr') return { kind: 'present', path };
  skipSpace();
  const value = parseValue();
  const filter: CompareFilter = { kind: 'compare', path, op, value };
  return filter;
}

function parseValue(): FilterValue {
  const c = src.charCodeAt(pos);
  if (c === 0x22 /* " */) return readString();
  if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
    return unquoted ? readBareNumberOrWord() : readNumber();
  }
  if (keywordAt(pos, 'true')) return endKeyword(4, true);
  if (keywordAt(pos, 'false')) return endKeyword(5, false);
  if (keywordAt(pos, 'null')) return endKeyword(4, null);
  if (unquoted && pos < src.length) return readBareWord(bareWordEnd());
  throw fail('expected a value: a string, a number, true, false or null');
}

/** Where a value without quotes ends: at a space, `)`, `]` or the end of the filter. */
function bareWordEnd(): number {
  let end = pos;
  for (;;) {
    const c = src.charCodeAt(end);
    if (end >= src.length || charClass(c) & SPACE || c === 0x29 || c === 0x5d) return end;
    end++;
  }
}

/** Reads a value without quotes, up to `end`, as a string (`unquotedValues`). */
function readBareWord(end: number): string {
  if (end === pos) throw fail('expected a value: a string, a number, true, false or null');
  const start = pos;
  pos = end;
  return clientText(src.slice(start, end), start);
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** With `unquotedValues`: a JSON number is a number, anything else (`2015-10-10T14:38:21`) a word. */
function readBareNumberOrWord(): FilterValue {
  const end = bareWordEnd();
  if (JSON_NUMBER.test(src.slice(pos, end))) return readNumber();
  return readBareWord(end);
}

/** Reads a JSON string literal (RFC 8259 §7 escapes) starting at its opening quote. */
function readString(): string {
  const open = pos;
  // Most literals hold no escape: find both ends with the engine's own search.
  const close = src.indexOf('"', open + 1);
  if (close < 0) throw failAt('unterminated string', open);
  if (nextBackslash >= 0 && nextBackslash <= open) nextBackslash = src.indexOf('\\', open + 1);
  if (nextBackslash < 0 || nextBackslash > close) {
    pos = close + 1;
    return clientText(src.slice(open + 1, close), open);
  }
  let chunk = ++pos;
  let out = '';
  for (;;) {
    if (pos >= src.length) throw failAt('unterminated string', open);
    const c = src.charCodeAt(pos);
    if (c === 0x22) break;
    if (c !== 0x5c /* \\ */) {
      pos++;
      continue;
    }
    out += src.slice(chunk, pos);
    const e = src.charCodeAt(pos + 1);
    let decoded: string;
    switch (e) {
      case 0x22:
        decoded = '"';
        break;
      case 0x5c:
        decoded = '\\';
        break;
      case 0x2f:
        decoded = '/';
        break;
      case 0x62:
        decoded = '\b';
        break;
      case 0x66:
        decoded = '\f';
        break;
      case 0x6e:
        decoded = '\n';
        break;
      case 0x72:
        decoded = '\r';
        break;
      case 0x74:
        decoded = '\t';
        break;
      case 0x75: {
        let code = 0;
        for (let i = pos + 2; i < pos + 6; i++) {
          const h = hexValue(src.charCodeAt(i));
          if (h < 0) throw fail('invalid \\u escape in string');
          code = code * 16 + h;
        }
        decoded = String.fromCharCode(code);
        pos += 4;
        break;
      }
      default:
        throw fail('invalid escape in string');
    }
    out += decoded;
    pos += 2;
    chunk = pos;
  }
  const value = chunk === open + 1 ? src.slice(chunk, pos) : out + src.slice(chunk, pos);
  pos++;
  return clientText(value, open);
}

// A `\u0000` or `\uD800` escape decodes to text no store can hold or compare.
function clientText(value: string, open: number): string {
  if (isClientText(value)) return value;
  throw failAt('a string may not hold U+0000 or an unpaired surrogate', open);
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

function endKeyword<T>(length: number, value: T): T {
  pos += length;
  return value;
}

function readNumber(): number {
  const start = pos;
  let i = pos;
  if (src.charCodeAt(i) === 0x2d) i++;
  const intStart = i;
  while (isDigit(src.charCodeAt(i))) i++;
  if (i === intStart || (src.charCodeAt(intStart) === 0x30 && i - intStart > 1)) {
    throw fail('malformed number');
  }
  if (src.charCodeAt(i) === 0x2e /* . */) {
    const fracStart = ++i;
    while (isDigit(src.charCodeAt(i))) i++;
    if (i === fracStart) throw failAt('malformed number', start);
  }
  if ((src.charCodeAt(i) | 0x20) === 0x65 /* e */) {
    i++;
    const sign = src.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    const expStart = i;
    while (isDigit(src.charCodeAt(i))) i++;
    if (i === expStart) throw failAt('malformed number', start);
  }
  if (isName(src.charCodeAt(i)) || src.charCodeAt(i) === 0x2e) {
    throw failAt('malformed number', start);
  }
  pos = i;
  return Number(src.slice(start, i));
}

/** Reads the attribute path that runs up to the next delimiter, with the one path grammar. */
function parseAttributePath(): AttributePath {
  let end = pos;
  while (end < src.length && !(charClass(src.charCodeAt(end)) & DELIMITER)) end++;
  const path = readAttributePath(src, pos, end, refuseAt);
  pos = end;
  return path;
}

function refuseAt(why: string, at: number): never {
  throw failAt(why, at);
}

/** Reads an attribute name (the one name rule). */
function readName(what: string): string {
  const start = pos;
  pos = nameEnd(src, start);
  if (pos === start) throw fail(`expected ${what}`);
  return src.slice(start, pos);
}

function enter(): void {
  if (++depth > maxDepth) throw fail(`the filter nests deeper than ${maxDepth} levels`);
}

/** Skips whitespace and returns the position it started from. */
function skipSpace(): number {
  const start = pos;
  while (charClass(src.charCodeAt(pos)) & SPACE) pos++;
  return start;
}

/** After optional spaces, tells whether the next word is `word` (`and`, `or`). */
function keywordAhead(word: string): boolean {
  skipSpace();
  return keywordAt(pos, word);
}

/** Tells whether a lower-case keyword stands at `at` as a whole word, in any letter case. */
function keywordAt(at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    if ((src.charCodeAt(at + i) | 0x20) !== word.charCodeAt(i)) return false;
  }
  return !isName(src.charCodeAt(at + word.length));
}

function operatorOf(a: number, b: number): CompareOperator | 'pr' | undefined {
  switch ((a << 8) | b) {
    case 0x6571:
      return 'eq';
    case 0x6e65:
      return 'ne';
    case 0x636f:
      return 'co';
    case 0x7377:
      return 'sw';
    case 0x6577:
      return 'ew';
    case 0x6774:
      return 'gt';
    case 0x6c74:
      return 'lt';
    case 0x6765:
      return 'ge';
    case 0x6c65:
      return 'le';
    case 0x7072:
      return 'pr';
    default:
      return undefined;
  }
}

function fail(message: string): ScimError {
  return failAt(message, pos);
}

function failAt(message: string, at: number): ScimError {
  const found = at >= src.length ? 'the end of the filter' : JSON.stringify(src.slice(at, at + 20));
  return scimErrors.invalidFilter(
    `Invalid filter: ${message} at character ${at + 1}, found ${found}.`,
  );
}

function isLetter(c: number): boolean {
  return (charClass(c) & LETTER) !== 0;
}

function isDigit(c: number): boolean {
  return (charClass(c) & DIGIT) !== 0;
}

function isName(c: number): boolean {
  return (charClass(c) & NAME) !== 0;
}

/** A letter: may start an attribute name or a keyword. */
const LETTER = 1;
/** May continue an attribute name (`isNameChar`). */
const NAME = 2;
/** A decimal digit. */
const DIGIT = 4;
/** Whitespace between tokens. */
const SPACE = 8;
/** Ends an attribute path: whitespace, brackets, parentheses, a quote. */
const DELIMITER = 16;

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
function charClass(c: number): number {
  return c < 128 ? (TABLE[c] as number) : 0;
}
