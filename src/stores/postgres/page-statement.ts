import { groupsColumn } from './groups-with-user.js';
import type { TableNames } from './table-names.js';

/** The table a page reads, how its unfiltered total is counted, and what each row adds. */
export interface PageSource {
  /** The table, with the alias a filter's conditions refer to it by, if any. */
  readonly from: string;
  /** The total of the tenant's rows when nothing is filtered (`$1` is the tenant). */
  readonly countAll: string;
  /** More output columns of each page row, as SQL over the page row `p` (`, ... AS name`). */
  readonly extra?: string;
}

/**
 * The users: an unfiltered total is the sum of the tenant's counter rows (migration 10),
 * whatever the number of users,
 * and each page row brings its user's direct groups (`groups`, see `groupsColumn`).
 */
export const usersPage = (t: TableNames): PageSource => ({
  from: t.users,
  countAll: `(SELECT COALESCE(sum(n), 0) FROM ${t.userCounts} WHERE tenant = $1)::int`,
  extra: `, ${groupsColumn(t, 'p.id')} AS groups`,
});

/** How a page is ordered when not by id. */
export interface PageSort {
  /** The SQL expression to order by (see `sortKey`). */
  readonly key: string;
  readonly descending: boolean;
}

/** How a keyset page narrows and reads the rows (see `seekCondition`). */
export interface PageSeek {
  /** The keyset condition, absent on a first page. */
  readonly where?: string;
  /** Read backward: the rows right before the place, returned in the page's order. */
  readonly backward: boolean;
}

/**
 * Builds the statement of one page of a resource table and its total: `$1` tenant, `$2` count,
 * `$3` offset, then the filter's parameters (and the keyset's). A page past the end still
 * returns one row with the total. A keyset page also returns each row's `id` and sort key as
 * text (`key`); its condition narrows the page, not the total.
 */
export function pageStatement(
  source: PageSource,
  where: string | undefined,
  sort: PageSort | undefined,
  seek?: PageSeek,
): string {
  const total =
    where === undefined
      ? source.countAll
      : `(SELECT count(*) FROM ${source.from} WHERE tenant = $1 AND ${where})::int`;
  // As the core's comparator: absent values are the largest (last ascending, first
  // descending), and ties go by id ascending in both directions, so paging stays stable.
  const order = (p: string, reverse = false) => {
    const descending = (sort?.descending ?? false) !== reverse;
    const id = `${p}id${reverse ? ' DESC' : ''}`;
    if (!sort) return id;
    return `${p}k ${descending ? 'DESC' : 'ASC'} NULLS ${descending ? 'FIRST' : 'LAST'}, ${id}`;
  };
  const conditions = [where, seek?.where].filter((c) => c !== undefined);
  const keyset = seek ? `, p.id, ${sort ? `to_jsonb(p.k) #>> '{}'` : 'NULL'} AS key` : '';
  return `SELECT c.total, p.doc${keyset}${source.extra ?? ''}
    FROM (SELECT ${total} AS total) AS c
    LEFT JOIN LATERAL (
      SELECT id, doc${sort ? `, ${sort.key} AS k` : ''} FROM ${source.from}
      WHERE tenant = $1${conditions.map((c) => ` AND ${c}`).join('')}
      ORDER BY ${order('', seek?.backward)} LIMIT $2 OFFSET $3
    ) AS p ON true
    ORDER BY ${order('p.')}`;
}
