import type { SchemaDefinition } from '../schema/types.js';
import type { Filter } from './ast.js';
import { compileFilter } from './compile-filter.js';
import type { FilterPredicate } from './compile-filter.js';

// Compiled predicates per filter object and schema list, so that a caller testing many
// resources one call at a time pays for compilation once. Weak keys: no leak.
const cache = new WeakMap<Filter, WeakMap<readonly SchemaDefinition[], FilterPredicate>>();

/**
 * Tells whether a resource (its SCIM JSON form) matches a filter, following each attribute's
 * definition. Compiles the filter on first use for this filter object and schema list (see
 * {@link compileFilter} for the rules); later calls reuse it.
 *
 * @throws ScimError 400 `invalidFilter` when the filter does not fit the schemas.
 * @see RFC 7644 §3.4.2.2
 * @example
 * ```ts
 * const filter = parseFilter('userName eq "BJensen@example.com"');
 * matchesFilter(user, filter, [userSchema, enterpriseUserSchema, accountSchema]);
 * ```
 */
export function matchesFilter(
  resource: Record<string, unknown>,
  filter: Filter,
  schemas: readonly SchemaDefinition[],
): boolean {
  let bySchemas = cache.get(filter);
  if (bySchemas === undefined) {
    bySchemas = new WeakMap();
    cache.set(filter, bySchemas);
  }
  let predicate = bySchemas.get(schemas);
  if (predicate === undefined) {
    predicate = compileFilter(filter, schemas);
    bySchemas.set(schemas, predicate);
  }
  return predicate(resource);
}
