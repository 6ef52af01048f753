import type { UserStore } from '../../contracts/user-store.js';
import type { Filter, FilterValue, CompareOperator } from '../../filter/ast.js';
import type { ScimUser } from '../../schema/user-resource.js';

/** Builds `attribute op value`; `attribute` may be dotted (`name.familyName`). */
export function compare(attribute: string, op: CompareOperator, value: FilterValue): Filter {
  const [name = attribute, subAttribute] = attribute.split('.');
  return {
    kind: 'compare',
    path: subAttribute ? { attribute: name, subAttribute } : { attribute: name },
    op,
    value,
  };
}

/** Builds `attribute eq value`. */
export const eq = (attribute: string, value: FilterValue): Filter =>
  compare(attribute, 'eq', value);

/** Tells whether the store declares it can answer `filter` (no declaration: every filter). */
export function supports(store: UserStore, filter: Filter): boolean {
  return store.capabilities?.supportsFilter?.(filter) ?? true;
}

/** Lists the ids matching `filter` on one page. */
export async function idsMatching(
  store: UserStore,
  tenant: string,
  filter: Filter,
  page: { startIndex: number; count: number } = { startIndex: 1, count: 100 },
): Promise<{ totalResults: number; ids: string[] }> {
  const result = await store.list(tenant, { ...page, filter });
  return {
    totalResults: result.totalResults,
    ids: result.resources.map((user: ScimUser) => user.id),
  };
}
