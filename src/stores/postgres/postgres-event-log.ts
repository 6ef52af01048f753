import type {
  DirectoryEvent,
  EventListQuery,
  EventLog,
  EventPage,
  LoggedEvent,
} from '../../contracts/event-log.js';
import { scimErrors } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';
import {
  EVENTS_PER_ROW,
  eventStatements,
  rowEvents,
  type EventRow,
  type EventStatements,
} from './event-statements.js';
import type { StoreContext } from './store-context.js';

// A cursor is the xid and seq of the event's row, each in base 36: "<xid>.<seq>", past the
// whole row; inside a row of several events, "<xid>.<seq>.<k>", past its first k events.
const CURSOR = /^([0-9a-z]{1,13})\.([0-9a-z]{1,13})(?:\.([0-9a-z]{1,4}))?$/;

/**
 * The event log of the PostgreSQL stores (`PostgresUserStore`'s and `PostgresResourceStore`'s
 * `events`): the events table of their table location, which every write of users, groups and
 * host resources inserts into in its own transaction. Read in (xid, seq) order below the
 * oldest running transaction, so a reader resuming from a cursor never skips an event that
 * committed late (see `eventStatements`).
 *
 * @internal
 */
export class PostgresEventLog implements EventLog {
  readonly #sql: EventStatements;

  constructor(private readonly context: StoreContext) {
    this.#sql = eventStatements(context.tables);
  }

  /**
   * Returns the events after `query.after` whose transactions have all ended, in log order.
   *
   * @throws ScimError 400 `invalidCursor` for a cursor this log did not give: one of another
   *   shape, or past every event it can have listed so far.
   */
  async list(query: EventListQuery): Promise<EventPage> {
    const at =
      query.after === undefined ? { xid: 0n, seq: 0n, passed: 0 } : parseCursor(query.after);
    // Inside a row, the read starts at that row (seq numbers are unique: none lies between).
    const rows = await this.context.query<{
      known: boolean;
      tail_xid: string | null;
      tail_seq: string | null;
      xid_text: string | null;
      seq_text: string | null;
      event: EventRow | null;
    }>(this.#sql.list, [
      at.xid.toString(),
      (at.passed > 0 ? at.seq - 1n : at.seq).toString(),
      query.limit,
      query.tenant ?? null,
      query.types ? [...query.types] : null,
      at.passed,
    ]);
    if (rows[0]?.known !== true) throw notACursor(query.after as string);
    const events: LoggedEvent[] = [];
    // A row of one write may hold events of other types than those asked for: they are
    // passed, not listed.
    const wanted = query.types ? new Set<string>(query.types) : undefined;
    // The cursor past the last event the page passed, listed or not.
    let passed: string | undefined;
    for (const { event, xid_text, seq_text } of rows) {
      if (event === null || events.length === query.limit) break;
      const xid = BigInt(xid_text as string);
      const seq = BigInt(seq_text as string);
      const inRow = rowEvents(event);
      const from = xid === at.xid && seq === at.seq ? at.passed : 0;
      for (let k = from; k < inRow.length && events.length < query.limit; k++) {
        const one = inRow[k] as DirectoryEvent;
        passed = cursorOf(xid, seq, k + 1, inRow.length);
        if (wanted === undefined || wanted.has(one.type)) events.push({ ...one, cursor: passed });
      }
    }
    // A page that is not full read to the end: it resumes past every event it passed.
    const tail = rows[0];
    if (events.length < query.limit && tail?.tail_xid != null && tail.tail_seq != null)
      return { events, next: cursorOf(BigInt(tail.tail_xid), BigInt(tail.tail_seq)) };
    return { events, next: passed ?? query.after };
  }

  /**
   * Deletes the oldest events that occurred before `before`, `limit` of them, or more by the
   * rest of one row (a row holds up to `EVENTS_PER_ROW` events of one write); resolves to how
   * many it deleted, fewer than `limit` only when nothing older is left.
   */
  async purge(before: Date, limit: number): Promise<number> {
    const rows = await this.context.query<{ n: number }>(this.#sql.purge, [
      before.toISOString(),
      limit,
    ]);
    return rows.reduce((sum, row) => sum + Number(row.n), 0);
  }
}

// The cursor past the first `passed` of the `count` events of the row at (xid, seq): the
// row's own once all are passed, so a row of one event has a cursor of two parts.
function cursorOf(xid: bigint, seq: bigint, passed = 1, count = 1): string {
  const row = `${xid.toString(36)}.${seq.toString(36)}`;
  return passed >= count ? row : `${row}.${passed.toString(36)}`;
}

/** Where a cursor points: past the first `passed` events of a row, or past it (`0`). */
interface LogPosition {
  readonly xid: bigint;
  readonly seq: bigint;
  readonly passed: number;
}

// The position a cursor names; 400 `invalidCursor` for text no log made.
function parseCursor(cursor: string): LogPosition {
  const match = CURSOR.exec(cursor);
  const xid = match ? fromBase36(match[1] as string) : -1n;
  const seq = match ? fromBase36(match[2] as string) : -1n;
  const passed = match?.[3] === undefined ? 0 : Number(fromBase36(match[3]));
  const inRow = match?.[3] !== undefined;
  const bad =
    xid < 0n ||
    seq < 0n ||
    xid >= 2n ** 63n ||
    seq >= 2n ** 63n ||
    (inRow && (passed < 1 || passed >= EVENTS_PER_ROW || seq < 1n));
  if (bad) throw notACursor(cursor);
  return { xid, seq, passed };
}

function notACursor(cursor: string) {
  return scimErrors.invalidCursor(`${previewJson(cursor)} is not a cursor of this event log.`);
}

function fromBase36(text: string): bigint {
  let n = 0n;
  for (const c of text) n = n * 36n + BigInt(parseInt(c, 36));
  return n;
}
