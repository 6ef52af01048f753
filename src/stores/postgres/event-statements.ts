import type { DirectoryEvent } from '../../contracts/event-log.js';
import type { QueryExecutor } from './query-executor.js';
import type { StoreContext } from './store-context.js';
import type { TableNames } from './table-names.js';

/**
 * The SQL of the event log (migration 8), built once per table location.
 *
 * Why the feed has no gaps: each row takes the id of the transaction that writes it
 * (`pg_current_xact_id()`, assigned when that transaction first writes) and a sequence number,
 * and a page reads in (xid, seq) order only the rows whose xid is below
 * `pg_snapshot_xmin(pg_current_snapshot())`, the oldest transaction still running. Every
 * transaction below that bound has ended, so its rows are all visible or gone for good; a
 * transaction still open has an xid at or above the bound, above every cursor handed out so
 * far, and its rows appear after them once it commits. A reader never passes an event that
 * commits later. The price: a transaction left open holds back the feed (not the writes).
 */
export interface EventStatements {
  /** $1: the events, a jsonb array, in order. */
  readonly insert: string;
  /** $1 xid, $2 seq (the cursor), $3 limit, $4 tenant or NULL, $5 types (text[]) or NULL. */
  readonly list: string;
  /** $1 before (timestamptz), $2 limit: deletes the oldest events, returns one row each. */
  readonly purge: string;
}

// The statements of each table location, built once: every write with events uses them, and
// the texts must stay the same strings for the drivers' prepared-statement caches.
const statementsCache = new WeakMap<TableNames, EventStatements>();

/** Returns the event statements of a table location (built on first use). */
export function eventStatements(t: TableNames): EventStatements {
  let sql = statementsCache.get(t);
  if (sql) return sql;
  sql = {
    insert: `INSERT INTO ${t.events} (tenant, type, occurred_at, event)
      SELECT e->>'tenant', e->>'type', (e->>'occurredAt')::timestamptz, e
      FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, n) ORDER BY n`,
    // The text columns have names of their own: ORDER BY a name of the output would sort the
    // text ("10" before "9"), not the numbers.
    list: `SELECT xid::text AS xid_text, seq::text AS seq_text, event FROM ${t.events}
      WHERE (xid, seq) > ($1::xid8, $2::bigint)
        AND xid < pg_snapshot_xmin(pg_current_snapshot())
        AND ($4::text IS NULL OR tenant = $4)
        AND ($5::text[] IS NULL OR type = ANY($5::text[]))
      ORDER BY xid, seq LIMIT $3`,
    purge: `DELETE FROM ${t.events} WHERE (xid, seq) IN (
        SELECT xid, seq FROM ${t.events} WHERE occurred_at < $1::timestamptz
        ORDER BY occurred_at LIMIT $2)
      RETURNING 1`,
  };
  statementsCache.set(t, sql);
  return sql;
}

/** Inserts a write's events in the write's transaction `tx`; nothing for none. */
export async function recordEvents(
  tx: QueryExecutor,
  t: TableNames,
  events: readonly DirectoryEvent[] | undefined,
): Promise<void> {
  if (!events || events.length === 0) return;
  await tx.query(eventStatements(t).insert, [JSON.stringify(events)], { prepare: true });
}

/**
 * Runs a write that is one statement, with its events in the same transaction: as it is (one
 * round trip) when it has none. `written` tells from the write's result whether it wrote (a
 * write of a resource that is gone records nothing); a write that throws records nothing.
 */
export async function writeWithEvents<T>(
  context: StoreContext,
  events: readonly DirectoryEvent[] | undefined,
  write: (run: QueryExecutor['query']) => Promise<T>,
  written: (result: T) => boolean,
): Promise<T> {
  if (!events || events.length === 0)
    return write((sql, params) => context.query(sql, params ?? []));
  return context.transaction(async (tx) => {
    const result = await write((sql, params) => tx.query(sql, params, { prepare: true }));
    if (written(result)) await recordEvents(tx, context.tables, events);
    return result;
  });
}
