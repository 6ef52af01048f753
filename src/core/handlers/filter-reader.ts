import type { Filter } from '../../filter/ast.js';
import { checkFilter, parseFilter, type ParseFilterOptions } from '../../filter/index.js';
import { unquotedValue, type RuleTrace } from '../../schema/dialect-rules.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';

/**
 * Builds the function that turns a filter text into a checked filter,
 * `checkFilter(parseFilter(text), type)`, under the type's dialect rule `unquotedFilterValues`
 * (values without quotes read as strings). With `trace` (a request someone listens to), each
 * value read without quotes is reported there, `where` being `filter`.
 *
 * @throws ScimError 400 `invalidFilter` (from the returned function) as `parseFilter` and
 *   `checkFilter` do.
 */
export function filterReader(
  type: CompiledResourceType,
  trace?: RuleTrace,
): (text: string) => Filter {
  const parse = filterParser(type, trace);
  return (text) => checkFilter(parse(text), type);
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
