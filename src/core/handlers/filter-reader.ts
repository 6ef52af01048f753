import type { CompareFilter, Filter } from '../../filter/ast.js';
import {
  DEFAULT_MAX_FILTER_LENGTH,
  checkFilter,
  parseFilter,
  type ParseFilterOptions,
} from '../../filter/index.js';
import { unquotedValue, type RuleTrace } from '../../schema/dialect-rules.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';

// `userName eq "..."` with a literal free of quotes and escapes: the query every IdP sends
// before it creates or links a user, and nearly every filter a server sees.
const PLAIN_USER_NAME_EQ = /^userName eq "([^"\\]*)"$/i;

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
    const match = text.length <= DEFAULT_MAX_FILTER_LENGTH ? PLAIN_USER_NAME_EQ.exec(text) : null;
    if (match?.[1] === undefined) return general(text);
    const filter: CompareFilter = { kind: 'compare', path, op: 'eq', value: match[1] };
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
