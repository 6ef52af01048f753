import type {
  ListPosition,
  ListQuery,
  ListSeek,
  ListSeekResult,
} from '../../contracts/store-query.js';
import type { AttributePath } from '../../filter/ast.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { CompiledSqlFilter } from './compile-sql-filter.js';
import type { ResourceTable } from './filter-targets.js';
import { pageStatement, type PageSource } from './page-statement.js';
import { seekCondition } from './seek-condition.js';
import { sortKey, sortKeyNullable } from './sort-key.js';
import type { StoreContext } from './store-context.js';

/** A row of a keyset page: the total, and the resource's document, id and sort key. */
export interface KeysetRow {
  readonly total: number;
  readonly doc: Record<string, unknown> | null;
  readonly id: string | null;
  readonly key: string | null;
}

/** What a keyset page reads: which table, in which type, and how a filter compiles. */
export interface KeysetSource<R> {
  readonly context: StoreContext;
  readonly page: PageSource;
  readonly table: ResourceTable;
  readonly type: CompiledResourceType;
  /** Compiles the query's filter with its parameters numbered from `first`. */
  readonly filter: (first: number) => CompiledSqlFilter | undefined;
  /** Turns a row into the resource returned. */
  readonly resource: (row: KeysetRow) => R;
}

/**
 * Reads one keyset page (`ListQuery.seek`) of any resource table: the page statement with the
 * keyset condition on the order's key (an index range when the order is by id or by an indexed
 * key), one row more than asked to tell whether more follow, read backward for a page before
 * the place.
 */
export async function keysetPage<R>(
  source: KeysetSource<R>,
  tenant: string,
  query: ListQuery,
  seek: ListSeek,
): Promise<{ totalResults: number; resources: R[]; seek: ListSeekResult }> {
  const { type, table } = source;
  const count = Math.max(0, query.count);
  const params: unknown[] = [tenant, count + 1, 0];
  const filter = source.filter(params.length + 1);
  if (filter) params.push(...filter.params);
  const descending = query.sortOrder === 'descending';
  const sort = query.sortBy && { key: sortKey(query.sortBy, type, table), descending };
  const order = sort
    ? { ...sort, nullable: sortKeyNullable(query.sortBy as AttributePath, type, table) }
    : { descending, nullable: false };
  const condition = seekCondition(seek, order, params.length + 1);
  if (condition) params.push(...condition.params);
  const backward = seek.direction === 'backward';
  const text = pageStatement(source.page, filter?.sql, sort || undefined, {
    ...(condition && { where: condition.sql }),
    backward,
  });
  const rows = await source.context.query<KeysetRow>(text, params, !filter && !sort);
  const found = rows.filter((row) => row.doc !== null);
  const more = found.length > count;
  // The extra row is the farthest one in the reading direction.
  const page = more ? (backward ? found.slice(1) : found.slice(0, count)) : found;
  const place = (row: KeysetRow): ListPosition =>
    row.key === null ? { id: row.id as string } : { id: row.id as string, key: row.key };
  const first = page[0];
  const last = page[page.length - 1];
  return {
    totalResults: Number(rows[0]?.total ?? 0),
    resources: page.map(source.resource),
    seek: { ...(first && { first: place(first) }), ...(last && { last: place(last) }), more },
  };
}
