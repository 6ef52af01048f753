import { insertEvents } from './event-statements.js';
import { groupsColumn } from './groups-with-user.js';
import type { DeleteTexts } from './postgres-table.js';
import type { TableNames } from './table-names.js';

/**
 * The texts of one user write, by what it records besides the user, each in the write's own
 * statement and only when the write wrote: after the write's own parameters come the outbox
 * messages (when there are any), then the events (when there are any), each a jsonb array.
 */
export interface WriteTexts {
  readonly plain: string;
  readonly outbox: string;
  readonly events: string;
  readonly outboxAndEvents: string;
}

/** Picks the text of a write and appends the parameters it takes, in that text's order. */
export function writeText(
  texts: WriteTexts,
  params: unknown[],
  outbox: string | undefined,
  events: string | undefined,
): [string, unknown[]] {
  if (outbox === undefined)
    return events === undefined ? [texts.plain, params] : [texts.events, [...params, events]];
  return events === undefined
    ? [texts.outbox, [...params, outbox]]
    : [texts.outboxAndEvents, [...params, outbox, events]];
}

/**
 * Builds the four texts of a write that takes `count` parameters of its own: `build` gets the
 * parameter of the outbox messages and of the events, or `undefined` for those it leaves out.
 */
function writeTexts(
  count: number,
  build: (outbox: string | undefined, events: string | undefined) => string,
): WriteTexts {
  const next = `$${count + 1}`;
  return {
    plain: build(undefined, undefined),
    outbox: build(next, undefined),
    events: build(undefined, next),
    outboxAndEvents: build(next, `$${count + 2}`),
  };
}

/**
 * The SQL text of every user statement, built once per store. Each is a single statement, so
 * each store call is one round trip and atomic without an explicit transaction. The reads and
 * the replaces also read the user's direct groups (`groups`, see `groupsColumn`) in the same
 * statement, so that an answer needs no second read for them.
 */
export interface UserStatements {
  /** $1 to $10 the user's columns; the outbox rows and events exist exactly when the user does. */
  readonly insert: WriteTexts;
  readonly get: string;
  /** As `insert` plus $11 the expected version; reports `changed`, `current` and `groups`. */
  readonly replace: WriteTexts;
  /** $1 tenant, $2 id, then the events or nothing: returns a row when it deleted. */
  readonly delete: DeleteTexts;
  /** As `delete` plus $3 the expected version; reports `changed` and `current`. */
  readonly deleteVersioned: DeleteTexts;
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
  const cur = `cur AS (SELECT version FROM ${t.users} WHERE tenant = $1 AND id = $2)`;
  const upd = `upd AS (
      UPDATE ${t.users} SET user_name = $3, user_name_key = $4, external_id = $5, version = $6,
        created = $7::timestamptz, last_modified = $8::timestamptz, doc = $9::jsonb,
        folded = $10::jsonb
      WHERE tenant = $1 AND id = $2 AND version = $11
      RETURNING 1
    )`;
  const replaceResult = `SELECT (SELECT count(*) FROM upd)::int AS changed,
    (SELECT version FROM cur) AS current, ${groupsColumn(t, '$2')} AS groups`;
  const deleted = `del AS (DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 RETURNING 1)`;
  const deletedAt = `del AS (
      DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 AND version = $3 RETURNING 1
    )`;
  const deleteResult = `SELECT (SELECT count(*) FROM del)::int AS changed,
    (SELECT version FROM cur) AS current`;
  // The rows a write records besides the user, as CTEs reading the write's CTE `wrote`.
  const effects = (wrote: string, outbox: string | undefined, events: string | undefined) =>
    (outbox === undefined ? '' : `, ob AS (${outboxFrom(wrote, outbox)})`) +
    (events === undefined ? '' : `, ev AS (${insertEvents(t, events, wrote)})`);
  return {
    insert: writeTexts(10, (outbox, events) =>
      outbox === undefined && events === undefined
        ? insertUser
        : `WITH u AS (${insertUser} RETURNING 1)${effects('u', outbox, events)}
          SELECT 1 FROM u`,
    ),
    get: `SELECT doc, ${groupsColumn(t, '$2')} AS groups FROM ${t.users} WHERE tenant = $1 AND id = $2`,
    replace: writeTexts(
      11,
      (outbox, events) => `WITH ${cur}, ${upd}${effects('upd', outbox, events)} ${replaceResult}`,
    ),
    delete: {
      plain: `DELETE FROM ${t.users} WHERE tenant = $1 AND id = $2 RETURNING 1`,
      events: `WITH ${deleted}${effects('del', undefined, '$3')} SELECT 1 FROM del`,
    },
    deleteVersioned: {
      plain: `WITH ${cur}, ${deletedAt} ${deleteResult}`,
      events: `WITH ${cur}, ${deletedAt}${effects('del', undefined, '$4')} ${deleteResult}`,
    },
    lookup: `SELECT u.doc, ${groupsColumn(t, 'u.id')} AS groups FROM ${t.users} AS u
      WHERE tenant = $1 AND `,
  };
}
