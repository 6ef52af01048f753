import type { CompiledResourceType } from '../schema/resource-type.js';
import type { Filter } from './ast.js';
import { compileFilter } from './compile-filter.js';

/**
 * Tells whether a resource (its SCIM JSON form) matches a filter, following each attribute's
 * definition (see {@link compileFilter} for the rules). It compiles the filter on every call:
 * to test many resources, compile once with {@link compileFilter} and call the predicate.
 *
 * @throws ScimError 400 `invalidFilter` when the filter does not fit the resource type.
 * @see RFC 7644 §3.4.2.2
 * @example
 * ```ts
 * const filter = parseFilter('userName eq "BJensen@example.com"');
 * matchesFilter(user, filter, userResourceType());
 * ```
 */
export function matchesFilter(
  resource: Record<string, unknown>,
  filter: Filter,
  type: CompiledResourceType,
): boolean {
  return compileFilter(filter, type)(resource);
}
