import { insertEventRows, insertEvents } from './event-statements.js';
import { groupsColumn } from './groups-with-user.js';
import type { DeleteTexts } from './postgres-table.js';
import type { TableNames } from './table-names.js';
import { countInsertedUsers } from './user-counts.js';

/**
 * The texts of one user write: without events, and with them (a jsonb array after the write's
 * own parameters), recorded in the write's own statement and only when the write wrote.
 */
export interface WriteTexts {
  readonly plain: string;
  readonly events: string;
}

/** Picks the text of a write and appends the events' parameter when it has events. */
export function writeText(
  texts: WriteTexts,
  params: readonly unknown[],
  events: string | undefined,
): [string, readonly unknown[]] {
  return events === undefined ? [texts.plain, params] : [texts.events, [...params, events]];
}

/**
 * The SQL text of every user statement, built once per store. Each is a single statement, so
 * each store call is one round trip and atomic without an explicit transaction. The reads also
 * read the user's direct groups (`groups`, see `groupsColumn`) in the same statement, so that
 * an answer needs no second read for them.
 */
export interface UserStatements {
  /**
   * $1 to $10 the user's columns; the tenant's count and the events change exactly when the
   * user is stored.
   */
  readonly insert: WriteTexts;
  /**
   * $1 a jsonb array of users, each with its columns and events (`manyRow` of the store): stores,
   * counts and records the events of every one whose unique keys are free, in order, and
   * returns the `tenant` and `id` of each it stored; one whose key is taken is left out.
   */
  readonly insertMany: string;
  /**
   * $1 a jsonb array of users, each with its columns, the version it replaces (`expected`) and
   * its events: replaces, and records the events of, every one still at its expected version,
   * in order, and returns the `tenant` and `id` of each it replaced. No two may be of one user.
   * Fails with SQLSTATE 55P03, having written nothing, when a user stays held by another
   * transaction for `SHARED_LOCK_WAIT`.
   */
  readonly replaceMany: string;
  readonly get: string;
  /**
   * $1 a jsonb array of `[tenant, id]` pairs: each user there is, as `get` reads it, with its
   * `tenant` and its id as `key`.
   */
  readonly getMany: string;
  /** As `insert` plus $11 the expected version; reports `changed` and `current`. */
  readonly replace: WriteTexts;
  /** $1 tenant, $2 id, then the events or nothing: returns a row when it deleted. */
  readonly delete: DeleteTexts;
  /** As `delete` plus $3 the expected version; reports `changed` and `current`. */
  readonly deleteVersioned: DeleteTexts;
  /** A lookup by a filter at most one user matches; the compiled filter follows the text. */
  readonly lookup: string;
  /**
   * $1 a jsonb array of `[tenant, key]` pairs: each user whose userName has that key, as
   * `lookup` reads it, with its `tenant` and `key`.
   */
  readonly lookupManyByUserNameKey: string;
}

/**
 * The longest a shared replace waits for a user another transaction holds before its writes
 * are written alone (see `replaceMany`).
 */
const SHARED_LOCK_WAIT = '100ms';

/** Builds the user statements for a table location. */
export function userStatements(t: TableNames): UserStatements {
  const insertUser = `INSERT INTO ${t.users}
      (tenant, id, user_name, user_name_key, external_id, version, created, last_modified, doc,
        folded)
      VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz, $9::jsonb, $10::jsonb)`;
  // `cur` reads the version in the statement's snapshot, so a failed conditional write can
  // tell "no such user" from "stale version" without a second round trip.
  const cur = `cur AS (SELECT version FROM ${t.users} WHERE tenant = $1 AND id = $2)`;
  const upd = `upd AS (
      UPDATE ${t.users} SET user_name = $3, user_name_key = $4, external_id = $5, version = $6,
        created = $7::timestamptz, last_modified = $8::timestamptz, doc = $9::jsonb,
        folded = $10::jsonb
      WHERE tenant = $1 AND id = $2 AND version = $11
      RETURNING 1
    )`;
  const replaceResult = `SELECT (SELECT count(*) FROM upd)::int AS changed,
    (SELECT version FROM cur) AS current`;
  const deleted = `del AS (DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 RETURNING 1)`;
  const deletedAt = `del AS (
      DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 AND version = $3 RETURNING 1
    )`;
  const deleteResult = `SELECT (SELECT count(*) FROM del)::int AS changed,
    (SELECT version FROM cur) AS current`;
  // The events a write records with the user, as a CTE reading the write's CTE `wrote`; `doc`
  // the SQL of the document it stores, if it stores one.
  const effects = (wrote: string, events: string, doc?: string) =>
    `, ev AS (${insertEvents(t, events, wrote, doc)})`;
  const inserted = `WITH u AS (${insertUser} RETURNING tenant), ${countInsertedUsers(t, 'u')}`;
  // The rows of a statement of several writes: each element of $1, with its place in it.
  const manyRows = `x AS (
      SELECT r, n FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(r, n))`;
  // The events of each write of such a statement that `wrote` (its CTE) returns, in order.
  const eventsOfMany = (wrote: string) => `ev AS (${insertEventRows(t, "x.r->'doc'")}
      FROM x JOIN ${wrote} ON ${wrote}.tenant = x.r->>'tenant' AND ${wrote}.id = x.r->>'id',
        jsonb_array_elements(x.r->'events') WITH ORDINALITY AS y(e, m)
      ORDER BY x.n, y.m)`;
  const insertMany = `WITH ${manyRows},
    u AS (INSERT INTO ${t.users}
      (tenant, id, user_name, user_name_key, external_id, version, created, last_modified, doc,
        folded)
      SELECT r->>'tenant', r->>'id', r->>'userName', r->>'key', r->>'externalId', r->>'version',
        (r->>'created')::timestamptz, (r->>'lastModified')::timestamptz, r->'doc', r->'folded'
      FROM x ORDER BY n
      ON CONFLICT DO NOTHING RETURNING tenant, id),
    ${countInsertedUsers(t, 'u')},
    ${eventsOfMany('u')}
    SELECT tenant, id FROM u`;
  // A user another transaction holds (a rename waiting on a large group's write, say) is not
  // waited for longer than SHARED_LOCK_WAIT: the statement then fails (SQLSTATE 55P03), having
  // written nothing, and each write waits alone, not every write behind it. The setting is the
  // statement's own (`set_config(…, true)` ends with its transaction), made before any row.
  const replaceMany = `WITH ${manyRows},
    u AS (UPDATE ${t.users} AS s SET user_name = r->>'userName', user_name_key = r->>'key',
        external_id = r->>'externalId', version = r->>'version',
        created = (r->>'created')::timestamptz, last_modified = (r->>'lastModified')::timestamptz,
        doc = r->'doc', folded = r->'folded'
      FROM x WHERE s.tenant = r->>'tenant' AND s.id = r->>'id' AND s.version = r->>'expected'
        AND (SELECT set_config('lock_timeout', '${SHARED_LOCK_WAIT}', true)) IS NOT NULL
      RETURNING s.tenant, s.id),
    ${eventsOfMany('u')}
    SELECT tenant, id FROM u`;
  return {
    insert: {
      plain: `${inserted} SELECT 1 FROM u`,
      events: `${inserted}${effects('u', '$11', '$9::jsonb')} SELECT 1 FROM u`,
    },
    insertMany,
    replaceMany,
    get: `SELECT doc, ${groupsColumn(t, '$2')} AS groups FROM ${t.users} WHERE tenant = $1 AND id = $2`,
    getMany: `SELECT u.tenant, u.id AS key, u.doc, ${groupsColumn(t, 'u.id', 'u.tenant')} AS groups
      FROM jsonb_array_elements($1::jsonb) AS k(r)
        JOIN ${t.users} AS u ON u.tenant = r->>0 AND u.id = r->>1`,
    replace: {
      plain: `WITH ${cur}, ${upd} ${replaceResult}`,
      events: `WITH ${cur}, ${upd}${effects('upd', '$12', '$9::jsonb')} ${replaceResult}`,
    },
    delete: {
      plain: `DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 RETURNING 1`,
      events: `WITH ${deleted}${effects('del', '$3')} SELECT 1 FROM del`,
    },
    deleteVersioned: {
      plain: `WITH ${cur}, ${deletedAt} ${deleteResult}`,
      events: `WITH ${cur}, ${deletedAt}${effects('del', '$4')} ${deleteResult}`,
    },
    lookup: `SELECT u.doc, ${groupsColumn(t, 'u.id')} AS groups FROM ${t.users} AS u
      WHERE tenant = $1 AND `,
    lookupManyByUserNameKey: `SELECT u.tenant, u.user_name_key AS key, u.doc,
        ${groupsColumn(t, 'u.id', 'u.tenant')} AS groups
      FROM jsonb_array_elements($1::jsonb) AS k(r)
        JOIN ${t.users} AS u ON u.tenant = r->>0 AND u.user_name_key = r->>1`,
  };
}
