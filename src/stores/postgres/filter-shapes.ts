import type { ListQuery } from '../../contracts/user-store.js';
import type { Filter } from '../../filter/ast.js';

/** Tells whether a list query is the common IdP lookup: one equality on an indexed column. */
export function isIndexedEquality(query: ListQuery): boolean {
  const f = query.filter;
  return (
    query.sortBy === undefined &&
    f?.kind === 'compare' &&
    f.op === 'eq' &&
    f.path.schema === undefined &&
    f.path.subAttribute === undefined &&
    ['userName', 'externalId', 'id'].includes(f.path.attribute)
  );
}

/** Tells whether at most one user can match: `userName eq` or `id eq`, alone or and-ed. */
export function matchesAtMostOne(filter: Filter): boolean {
  if (filter.kind === 'and') return matchesAtMostOne(filter.left) || matchesAtMostOne(filter.right);
  return (
    filter.kind === 'compare' &&
    filter.op === 'eq' &&
    typeof filter.value === 'string' &&
    filter.path.schema === undefined &&
    filter.path.subAttribute === undefined &&
    (filter.path.attribute === 'userName' || filter.path.attribute === 'id')
  );
}
