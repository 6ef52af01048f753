import { scimErrors } from '../errors/index.js';
import type { ScimError } from '../errors/index.js';
import { isClientText } from '../json/client-text.js';
import { readAttributePath } from '../schema/attribute-path.js';
import type { AttributePath, CompareOperator, Filter, FilterValue } from './ast.js';
import { nameEnd } from './char-class.js';
import { FilterTokenizer, filterError } from './tokenize-filter.js';
import type { FilterTokenKind } from './tokenize-filter.js';

/** Limits of {@link parseFilter}. */
export interface ParseFilterOptions {
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
  /**
   * Hears each value read without quotes under `unquotedValues`, as written (`O`), so a caller
   * can report that the dialect rule changed the request. Not called for a filter that fails.
   */
  readonly onBareValue?: ((word: string) => void) | undefined;
}

/** The longest filter {@link parseFilter} accepts unless told otherwise, in characters. */
export const DEFAULT_MAX_FILTER_LENGTH = 4096;
/** The deepest nesting {@link parseFilter} accepts unless told otherwise. */
export const DEFAULT_MAX_FILTER_DEPTH = 32;

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
export function parseFilter(text: string, options?: ParseFilterOptions): Filter {
  if (typeof text !== 'string') throw scimErrors.invalidFilter('The filter must be a string.');
  const maxLength = options?.maxLength ?? DEFAULT_MAX_FILTER_LENGTH;
  if (text.length > maxLength) {
    throw scimErrors.invalidFilter(
      `The filter is ${text.length} characters long; the limit is ${maxLength}.`,
    );
  }
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_FILTER_DEPTH;
  const parser = new FilterParser(text, maxDepth, options?.unquotedValues === true);
  const filter = parser.filter();
  if (options?.onBareValue) for (const word of parser.bare) options.onBareValue(word);
  return filter;
}

const OPERATORS: ReadonlySet<string> = new Set([
  'eq',
  'ne',
  'co',
  'sw',
  'ew',
  'gt',
  'lt',
  'ge',
  'le',
  'pr',
]);

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * One parse: a recursive-descent parser with one method per rule of the grammar of RFC 7644
 * §3.4.2.2 (Figure 1), over a `FilterTokenizer`. Precedence: `not` and grouping, then
 * `and`, then `or`; `and` and `or` group to the left. Recursion only happens through `(`, `not (`
 * and `[`, each one level counted against `maxDepth`, so no input can exhaust the stack.
 */
class FilterParser {
  private readonly tokens: FilterTokenizer;
  private depth = 0;
  private inBrackets = false;
  /** The values read without quotes, as written, in filter order. */
  readonly bare: string[] = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
    private readonly unquoted: boolean,
  ) {
    this.tokens = new FilterTokenizer(text);
  }

  /** filter = orExpression, then the end of the text. */
  filter(): Filter {
    if (this.at('end')) throw this.failAt('the filter is empty');
    const filter = this.orExpression();
    if (!this.at('end')) {
      throw this.failAt('expected "and", "or" or the end of the filter');
    }
    return filter;
  }

  /** orExpression = andExpression *("or" andExpression). */
  private orExpression(): Filter {
    let left = this.andExpression();
    while (this.tokens.isKeyword('or')) {
      this.tokens.advance();
      left = { kind: 'or', left, right: this.andExpression() };
    }
    return left;
  }

  /** andExpression = term *("and" term). */
  private andExpression(): Filter {
    let left = this.term();
    while (this.tokens.isKeyword('and')) {
      this.tokens.advance();
      left = { kind: 'and', left, right: this.term() };
    }
    return left;
  }

  /** term = "(" orExpression ")" / "not" "(" orExpression ")" / attributeExpression. */
  private term(): Filter {
    const tokens = this.tokens;
    if (tokens.kind === '(') return this.group();
    if (!tokens.isKeyword('not')) return this.attributeExpression(tokens.start, tokens.end);
    const { start, end } = tokens;
    tokens.advance();
    if (this.at('(')) return { kind: 'not', filter: this.group() };
    // An attribute may be named "not": then "not" was its path.
    return this.attributeExpression(start, end, true);
  }

  /** A group, at its `(`: "(" orExpression ")". */
  private group(): Filter {
    this.enter(this.tokens.end);
    this.tokens.advance();
    const inner = this.orExpression();
    if (!this.at(')')) throw this.failAt('expected ")"');
    this.tokens.advance();
    this.depth--;
    return inner;
  }

  /**
   * attributeExpression = attrPath ("pr" / compareOp compValue) / valuePath, the path being the
   * word at `[start, end)`; `read` when the tokenizer has already moved past it.
   */
  private attributeExpression(start: number, end: number, read = false): Filter {
    const path = this.attributePath(start, end, read);
    if (!read) this.tokens.advance();
    if (this.tokens.kind === '[' && this.tokens.start === end) return this.valuePath(path);
    return this.comparison(path);
  }

  /** attrPath = [URI ":"] ATTRNAME *1subAttr: the one path grammar (schema/attribute-path.ts). */
  private attributePath(start: number, end: number, isWord: boolean): AttributePath {
    if (!isWord && this.tokens.kind !== 'word') throw this.failAt('expected an attribute name');
    try {
      return readAttributePath(this.text, start, end, refusePath);
    } catch (error) {
      if (error instanceof PathRefusal) throw this.failAt(error.why, error.at);
      throw error;
    }
  }

  /**
   * valuePath = attrPath "[" valFilter "]", where valFilter has no value path of its own. Also
   * Entra ID's `emails[type eq "work"].value eq "x"`, read as the one bracket filter
   * `emails[type eq "work" and value eq "x"]`.
   */
  private valuePath(path: AttributePath): Filter {
    const tokens = this.tokens;
    if (this.inBrackets) throw this.failAt('value paths cannot be nested');
    this.enter(tokens.end);
    tokens.advance();
    this.inBrackets = true;
    const inner = this.orExpression();
    if (tokens.kind !== ']') throw this.failAt('expected "]"');
    const closed = tokens.end;
    tokens.advance();
    this.inBrackets = false;
    this.depth--;
    const dotted = this.at('word') && tokens.start === closed && this.text.charAt(closed) === '.';
    if (!dotted) return { kind: 'valuePath', path, filter: inner };
    const subStart = closed + 1;
    const subEnd = nameEnd(this.text, subStart);
    if (subEnd === subStart) throw this.failAt('expected a sub-attribute name', subStart);
    if (subEnd < tokens.end) throw this.failAt(EXPECTED_OPERATOR, subEnd);
    tokens.advance();
    const tail = this.comparison({ attribute: this.text.slice(subStart, subEnd) });
    return { kind: 'valuePath', path, filter: { kind: 'and', left: inner, right: tail } };
  }

  /** comparison = attrPath SP compareOp SP compValue, or attrPath SP "pr"; at the operator. */
  private comparison(path: AttributePath): Filter {
    const tokens = this.tokens;
    const op =
      tokens.kind === 'word' ? this.text.slice(tokens.start, tokens.end).toLowerCase() : '';
    if (!OPERATORS.has(op)) throw this.failAt(EXPECTED_OPERATOR);
    if (op === 'pr') {
      tokens.advance();
      return { kind: 'present', path };
    }
    if (this.unquoted) tokens.advanceBare();
    else tokens.advance();
    const value = this.value();
    tokens.advance();
    return { kind: 'compare', path, op: op as CompareOperator, value };
  }

  /** compValue = false / null / true / number / string (RFC 8259), or a bare word when allowed. */
  private value(): FilterValue {
    const { kind, start, end } = this.tokens;
    if (kind === 'string') return this.stringValue(start, end);
    if (kind !== 'word') throw this.failAt(EXPECTED_VALUE);
    const word = this.text.slice(start, end);
    switch (word.toLowerCase()) {
      case 'true':
        return true;
      case 'false':
        return false;
      case 'null':
        return null;
    }
    const c = word.charAt(0);
    if (c === '-' || (c >= '0' && c <= '9')) {
      if (JSON_NUMBER.test(word)) return Number(word);
      if (!this.unquoted) throw this.failAt('malformed number');
    }
    if (!this.unquoted) throw this.failAt(EXPECTED_VALUE);
    const value = this.clientText(word, start);
    this.bare.push(word);
    return value;
  }

  /** A JSON string literal's value: its text, or `JSON.parse` of it when it holds escapes. */
  private stringValue(start: number, end: number): string {
    const value = this.tokens.escaped
      ? (JSON.parse(this.text.slice(start, end).replace(RAW_CONTROL, escapeControl)) as string)
      : this.text.slice(start + 1, end - 1);
    return this.clientText(value, start);
  }

  // A `\u0000` or `\uD800` escape decodes to text no store can hold or compare.
  private clientText(value: string, at: number): string {
    if (isClientText(value)) return value;
    throw this.failAt('a string may not hold U+0000 or an unpaired surrogate', at);
  }

  /** Tells whether the current token is of `kind` (a call, so that TypeScript does not narrow). */
  private at(kind: FilterTokenKind): boolean {
    return this.tokens.kind === kind;
  }

  /** Counts one level of nesting, refusing one past `maxDepth`. */
  private enter(at: number): void {
    if (++this.depth > this.maxDepth) {
      throw this.failAt(`the filter nests deeper than ${this.maxDepth} levels`, at);
    }
  }

  /** The error for a failure at `at`, by default where the current token starts. */
  private failAt(message: string, at = this.tokens.start): ScimError {
    return filterError(this.text, message, at);
  }
}

const EXPECTED_OPERATOR = 'expected an operator (eq, ne, co, sw, ew, gt, lt, ge, le or pr)';
const EXPECTED_VALUE = 'expected a value: a string, a number, true, false or null';

/** Why and where the path reader refused a path; turned into the filter's error by the parser. */
class PathRefusal {
  constructor(
    readonly why: string,
    readonly at: number,
  ) {}
}

function refusePath(why: string, at: number): never {
  throw new PathRefusal(why, at);
}

// JSON forbids raw control characters in a string; a filter has always allowed them, so they are
// escaped before JSON.parse reads the literal.
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u001f]/g;

/** Writes a control character as a JSON `\\u` escape. */
function escapeControl(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
