import type { CompareFilter, Filter } from '../../filter/ast.js';
import {
  DEFAULT_MAX_FILTER_LENGTH,
  checkFilter,
  parseFilter,
  type ParseFilterOptions,
} from '../../filter/index.js';
import { unquotedValue, type RuleTrace } from '../../schema/dialect-rules.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';

// `username eq "`: the start of a plain userName equality, in lower case.
const PLAIN_START = 'username eq "';

/**
 * Returns the literal of `userName eq "..."` with a literal free of quotes and escapes (the
 * query every IdP sends before it creates or links a user, and nearly every filter a server
 * sees): what `/^userName eq "([^"\\]*)"$/i` captures, `undefined` where it does not match.
 * Read by hand, not by that expression: no match array per request. Held to the expression by
 * a property test (test/core/filter-reader.test.ts).
 */
export function plainUserNameLiteral(text: string): string | undefined {
  const last = text.length - 1;
  if (last < PLAIN_START.length || text.charCodeAt(last) !== 0x22) return undefined;
  for (let i = 0; i < PLAIN_START.length; i++) {
    const code = text.charCodeAt(i);
    const wanted = PLAIN_START.charCodeAt(i);
    // A letter in any ASCII case (only its own upper case `| 0x20` maps to it); else exactly.
    if (code !== wanted && (wanted < 0x61 || (code | 0x20) !== wanted)) return undefined;
  }
  for (let i = PLAIN_START.length; i < last; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c) return undefined;
  }
  return text.slice(PLAIN_START.length, last);
}

/**
 * Builds the function that turns a filter text into a checked filter, as
 * `checkFilter(parseFilter(text), type)` does, under the type's dialect rule
 * `unquotedFilterValues` (values without quotes read as strings). A plain `userName eq "..."` takes a fast
 * path: its attribute is resolved and checked once, here, and each request only fills in the
 * literal, which a string attribute accepts whatever it holds. With `trace` (a request someone
 * listens to), each value read without quotes is reported there, `where` being `filter`.
 *
 * @throws ScimError 400 `invalidFilter` (from the returned function) as `parseFilter` and
 *   `checkFilter` do.
 */
export function filterReader(
  type: CompiledResourceType,
  trace?: RuleTrace,
): (text: string) => Filter {
  const parse = filterParser(type, trace);
  const general = (text: string): Filter => checkFilter(parse(text), type);
  // The fast path is the User's: a type without `userName` (a Group) reads every filter alike.
  if (!type.attribute(type.core, 'userName')) return general;
  const template = general('userName eq ""');
  if (template.kind !== 'compare' || template.op !== 'eq') return general;
  // Shared by every request's filter: nobody may change it.
  const path = Object.freeze({ ...template.path });
  return (text) => {
    const value = text.length <= DEFAULT_MAX_FILTER_LENGTH ? plainUserNameLiteral(text) : undefined;
    if (value === undefined) return general(text);
    const filter: CompareFilter = { kind: 'compare', path, op: 'eq', value };
    return filter;
  };
}

/**
 * Builds the function that parses a filter text under the type's dialect rule
 * `unquotedFilterValues`, reporting each value read without quotes to `trace` (`where`:
 * `filter`), without checking its attributes against the type: for a search at the root, where
 * an attribute one type lacks is no error.
 *
 * @throws ScimError 400 `invalidFilter` (from the returned function) as `parseFilter` does.
 */
export function filterParser(
  type: CompiledResourceType,
  trace?: RuleTrace,
): (text: string) => Filter {
  const options: ParseFilterOptions = {
    unquotedValues: type.rules.unquotedFilterValues,
    onBareValue: trace && ((word) => trace(unquotedValue('filter', word))),
  };
  return (text) => parseFilter(text, options);
}

/** The filter readers of a served type: {@link filterReader} and {@link filterParser}. */
export function filterReading(
  type: CompiledResourceType,
  trace?: RuleTrace,
): {
  readonly readFilter: (text: string) => Filter;
  readonly parseFilter: (text: string) => Filter;
} {
  return { readFilter: filterReader(type, trace), parseFilter: filterParser(type, trace) };
}
