import type { DirectoryEvent } from '../../contracts/event-log.js';
import type { QueryExecutor } from './query-executor.js';
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
  /**
   * $1 xid, $2 seq (the cursor), $3 limit, $4 tenant or NULL, $5 types (text[]) or NULL:
   * `known` (whether the log can have given the cursor) on every row, and at least one row;
   * `event` is NULL on the only row of an empty page. With types, `tail_xid` and `tail_seq`
   * name the last event of the tenant (or of all) the read could have passed, matching or not.
   */
  readonly list: string;
  /** $1 before (timestamptz), $2 limit: deletes the oldest events, returns one row each. */
  readonly purge: string;
}

/**
 * The `INSERT` of a write's events, `param` (a jsonb array) in order, one row each: on its own
 * (in the write's transaction), or as a CTE of the write's own statement, where `wrote` names
 * the write's CTE, which returns a row exactly when the write wrote. That CTE sees the write's
 * `RETURNING` rows, not its snapshot's, so a write that found no row, or a stale version,
 * records nothing; and it runs in the write's transaction, so its rows share the write's xid.
 */
export function insertEvents(t: TableNames, param: string, wrote?: string): string {
  const when = wrote === undefined ? '' : ` WHERE EXISTS (SELECT 1 FROM ${wrote})`;
  // An event sent with `data.${SAME_RESOURCE}: i` is stored with the resource of event i.
  return `INSERT INTO ${t.events} (tenant, type, occurred_at, event)
      SELECT e->>'tenant', e->>'type', (e->>'occurredAt')::timestamptz,
        CASE WHEN e->'data' ? '${SAME_RESOURCE}' THEN jsonb_set(e #- '{data,${SAME_RESOURCE}}',
          '{data,resource}', p.a -> ((e->'data'->>'${SAME_RESOURCE}')::int) -> 'data' -> 'resource')
        ELSE e END
      FROM (SELECT ${param}::jsonb AS a) AS p,
        jsonb_array_elements(p.a) WITH ORDINALITY AS x(e, n)${when} ORDER BY n`;
}

/**
 * The most events one statement of {@link recordEvents} inserts. A write that records more (a
 * large group's create or member replace: one event per membership changed) inserts them in
 * several statements of its transaction, in order: each parameter stays about a megabyte
 * rather than one text and one jsonb value of tens, and each statement stays far below the
 * statement timeout.
 */
export const EVENTS_PER_STATEMENT = 5_000;

/** The member of an event's `data`, as sent, naming the earlier event whose resource it has. */
const SAME_RESOURCE = 'sameResourceAs';

/**
 * A write's events as the statements that record them take them; `undefined` for none. A
 * resource that several events of the write carry (a create's `user.created` and
 * `user.invited`, a PATCH's `user.updated` and `user.deactivated`) is sent once, with the first
 * of them; `insertEvents` stores each event with it.
 */
export function eventsParam(events: readonly DirectoryEvent[] | undefined): string | undefined {
  if (!events || events.length === 0) return undefined;
  // The index of the first event that carries each resource (the same object).
  const firstWith = new Map<object, number>();
  let sent: unknown[] | undefined;
  events.forEach((event, i) => {
    const { data } = event;
    if (data.resource === undefined) return;
    const first = firstWith.get(data.resource);
    if (first === undefined) {
      firstWith.set(data.resource, i);
      return;
    }
    const { resource: _resource, ...rest } = data;
    sent ??= [...events];
    sent[i] = { ...event, data: { ...rest, [SAME_RESOURCE]: first } };
  });
  return JSON.stringify(sent ?? events);
}

/**
 * Returns the event statements of a table location. The same location always gives the same
 * texts, which is what the drivers' prepared-statement caches key on.
 */
export function eventStatements(t: TableNames): EventStatements {
  return {
    insert: insertEvents(t, '$1'),
    // The text columns have names of their own: ORDER BY a name of the output would sort the
    // text ("10" before "9"), not the numbers. Every cursor handed out has an xid below the
    // bound of its read, and the bound never goes down: a cursor at or above it now was never
    // given (`known` false), and the same statement says so, even for an empty page.
    // The tail lets a read of some types resume past the events of other types it passed
    // (one backward step of an index), rather than scan them again on every poll.
    list: `SELECT b.known, t.tail_xid, t.tail_seq, e.xid_text, e.seq_text, e.event
      FROM (SELECT $1::xid8 < pg_snapshot_xmin(pg_current_snapshot()) AS known) AS b
      LEFT JOIN LATERAL (
        SELECT xid::text AS tail_xid, seq::text AS tail_seq FROM ${t.events}
        WHERE b.known AND $5::text[] IS NOT NULL AND (xid, seq) > ($1::xid8, $2::bigint)
          AND xid < pg_snapshot_xmin(pg_current_snapshot())
          AND ($4::text IS NULL OR tenant = $4)
        ORDER BY xid DESC, seq DESC LIMIT 1
      ) AS t ON true
      LEFT JOIN LATERAL (
        SELECT xid, seq, xid::text AS xid_text, seq::text AS seq_text, event FROM ${t.events}
        WHERE b.known AND (xid, seq) > ($1::xid8, $2::bigint)
          AND xid < pg_snapshot_xmin(pg_current_snapshot())
          AND ($4::text IS NULL OR tenant = $4)
          AND ($5::text[] IS NULL OR type = ANY($5::text[]))
        ORDER BY xid, seq LIMIT $3
      ) AS e ON true
      ORDER BY e.xid, e.seq`,
    purge: `DELETE FROM ${t.events} WHERE (xid, seq) IN (
        SELECT xid, seq FROM ${t.events} WHERE occurred_at < $1::timestamptz
        ORDER BY occurred_at LIMIT $2)
      RETURNING 1`,
  };
}

/**
 * Inserts a write's events from the `from`th on (those before went with the write's own
 * statement) in the write's transaction `tx`, in order, at most {@link EVENTS_PER_STATEMENT}
 * a statement; nothing for none.
 */
export async function recordEvents(
  tx: QueryExecutor,
  sql: EventStatements,
  events: readonly DirectoryEvent[] | undefined,
  from = 0,
): Promise<void> {
  if (!events) return;
  for (let start = from; start < events.length; start += EVENTS_PER_STATEMENT) {
    const part =
      start === 0 && events.length <= EVENTS_PER_STATEMENT
        ? events
        : events.slice(start, start + EVENTS_PER_STATEMENT);
    await tx.query(sql.insert, [eventsParam(part)], { prepare: true });
  }
}
