import type { TableNames } from './table-names.js';

/**
 * The SQL text of every user statement, built once per store. Each is a single statement, so
 * each store call is one round trip and atomic without an explicit transaction.
 */
export interface UserStatements {
  readonly insert: string;
  /** Insert plus the outbox rows ($10, a jsonb array of messages), or neither. */
  readonly insertWithOutbox: string;
  readonly get: string;
  readonly replace: string;
  /** Replace ($10: expected version) plus the outbox rows ($11), written only when the user is. */
  readonly replaceWithOutbox: string;
  readonly delete: string;
  readonly deleteVersioned: string;
  /** A lookup by a filter at most one user matches; the compiled filter follows the text. */
  readonly lookup: string;
  /** The page of an unfiltered list by id, with the tenant's count from the counter table. */
  readonly pageAll: string;
}

/** Builds the user statements for a table location. */
export function userStatements(t: TableNames): UserStatements {
  const insertUser = `INSERT INTO ${t.users}
      (tenant, id, user_name, user_name_key, external_id, version, created, last_modified, doc)
      VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz, $9::jsonb)`;
  // The outbox rows read from the user's CTE: no user row, no message.
  const outboxFrom = (cte: string, messages: string) => `INSERT INTO ${t.outbox}
      (id, tenant, user_id, kind, payload, created_at, due_at)
      SELECT m->>'id', $1, m->>'userId', m->>'kind', m,
        (m->>'createdAt')::timestamptz, (m->>'createdAt')::timestamptz
      FROM ${cte} CROSS JOIN jsonb_array_elements(${messages}::jsonb) AS m`;
  // `cur` reads the version in the statement's snapshot, so a failed conditional write can
  // tell "no such user" from "stale version" without a second round trip.
  const replaceCtes = `WITH cur AS (SELECT version FROM ${t.users} WHERE tenant = $1 AND id = $2),
    upd AS (
      UPDATE ${t.users} SET user_name = $3, user_name_key = $4, external_id = $5, version = $6,
        created = $7::timestamptz, last_modified = $8::timestamptz, doc = $9::jsonb
      WHERE tenant = $1 AND id = $2 AND version = $10
      RETURNING 1
    )`;
  const replaceResult = `SELECT (SELECT count(*) FROM upd)::int AS changed, (SELECT version FROM cur) AS current`;
  return {
    insert: insertUser,
    insertWithOutbox: `WITH u AS (${insertUser} RETURNING 1) ${outboxFrom('u', '$10')}`,
    get: `SELECT doc FROM ${t.users} WHERE tenant = $1 AND id = $2`,
    replace: `${replaceCtes} ${replaceResult}`,
    replaceWithOutbox: `${replaceCtes}, ob AS (${outboxFrom('upd', '$11')}) ${replaceResult}`,
    delete: `DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 RETURNING 1`,
    deleteVersioned: `WITH cur AS (SELECT version FROM ${t.users} WHERE tenant = $1 AND id = $2),
      del AS (DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 AND version = $3 RETURNING 1)
      SELECT (SELECT count(*) FROM del)::int AS changed, (SELECT version FROM cur) AS current`,
    pageAll: pageStatement(t, undefined, undefined),
    lookup: `SELECT doc FROM ${t.users} WHERE tenant = $1 AND `,
  };
}

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
 * Builds the statement of one page and its total: `$1` tenant, `$2` count, `$3` offset, then
 * the filter's parameters (and the keyset's). An unfiltered total comes from the counter
 * table, so its cost does not grow with the number of users; a page past the end still
 * returns one row with the total. A keyset page also returns each row's `id` and sort key as
 * text (`key`); its condition narrows the page, not the total.
 */
export function pageStatement(
  t: TableNames,
  where: string | undefined,
  sort: PageSort | undefined,
  seek?: PageSeek,
): string {
  const total =
    where === undefined
      ? `COALESCE((SELECT n FROM ${t.userCounts} WHERE tenant = $1), 0)::int`
      : `(SELECT count(*) FROM ${t.users} WHERE tenant = $1 AND ${where})::int`;
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
  return `SELECT c.total, p.doc${keyset}
    FROM (SELECT ${total} AS total) AS c
    LEFT JOIN LATERAL (
      SELECT id, doc${sort ? `, ${sort.key} AS k` : ''} FROM ${t.users}
      WHERE tenant = $1${conditions.map((c) => ` AND ${c}`).join('')}
      ORDER BY ${order('', seek?.backward)} LIMIT $2 OFFSET $3
    ) AS p ON true
    ORDER BY ${order('p.')}`;
}
