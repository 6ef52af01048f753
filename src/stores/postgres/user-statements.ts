import { groupsColumn } from './groups-with-user.js';
import type { TableNames } from './table-names.js';

/**
 * The SQL text of every user statement, built once per store. Each is a single statement, so
 * each store call is one round trip and atomic without an explicit transaction. The reads and
 * the replaces also read the user's direct groups (`groups`, see `groupsColumn`) in the same
 * statement, so that an answer needs no second read for them.
 */
export interface UserStatements {
  readonly insert: string;
  /** Insert plus the outbox rows ($11, a jsonb array of messages), or neither. */
  readonly insertWithOutbox: string;
  readonly get: string;
  readonly replace: string;
  /** Replace ($11: expected version) plus the outbox rows ($12), written only when the user is. */
  readonly replaceWithOutbox: string;
  readonly delete: string;
  readonly deleteVersioned: string;
  /** A lookup by a filter at most one user matches; the compiled filter follows the text. */
  readonly lookup: string;
}

/** Builds the user statements for a table location. */
export function userStatements(t: TableNames): UserStatements {
  const insertUser = `INSERT INTO ${t.users}
      (tenant, id, user_name, user_name_key, external_id, version, created, last_modified, doc,
        folded)
      VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz, $9::jsonb, $10::jsonb)`;
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
        created = $7::timestamptz, last_modified = $8::timestamptz, doc = $9::jsonb,
        folded = $10::jsonb
      WHERE tenant = $1 AND id = $2 AND version = $11
      RETURNING 1
    )`;
  const replaceResult = `SELECT (SELECT count(*) FROM upd)::int AS changed,
    (SELECT version FROM cur) AS current, ${groupsColumn(t, '$2')} AS groups`;
  return {
    insert: insertUser,
    insertWithOutbox: `WITH u AS (${insertUser} RETURNING 1) ${outboxFrom('u', '$11')}`,
    get: `SELECT doc, ${groupsColumn(t, '$2')} AS groups FROM ${t.users} WHERE tenant = $1 AND id = $2`,
    replace: `${replaceCtes} ${replaceResult}`,
    replaceWithOutbox: `${replaceCtes}, ob AS (${outboxFrom('upd', '$12')}) ${replaceResult}`,
    delete: `DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 RETURNING 1`,
    deleteVersioned: `WITH cur AS (SELECT version FROM ${t.users} WHERE tenant = $1 AND id = $2),
      del AS (DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 AND version = $3 RETURNING 1)
      SELECT (SELECT count(*) FROM del)::int AS changed, (SELECT version FROM cur) AS current`,
    lookup: `SELECT u.doc, ${groupsColumn(t, 'u.id')} AS groups FROM ${t.users} AS u
      WHERE tenant = $1 AND `,
  };
}
