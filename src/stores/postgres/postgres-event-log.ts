import type {
  DirectoryEvent,
  EventListQuery,
  EventLog,
  EventPage,
  LoggedEvent,
} from '../../contracts/event-log.js';
import { scimErrors } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';
import { eventStatements, type EventStatements } from './event-statements.js';
import type { StoreContext } from './store-context.js';

// A cursor is the event's xid and seq, each in base 36: "<xid>.<seq>".
const CURSOR = /^([0-9a-z]{1,13})\.([0-9a-z]{1,13})$/;

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
    const [xid, seq] = query.after === undefined ? ['0', '0'] : parseCursor(query.after);
    const rows = await this.context.query<{
      known: boolean;
      tail_xid: string | null;
      tail_seq: string | null;
      xid_text: string | null;
      seq_text: string | null;
      event: DirectoryEvent | null;
    }>(this.#sql.list, [
      xid,
      seq,
      query.limit,
      query.tenant ?? null,
      query.types ? [...query.types] : null,
    ]);
    if (rows[0]?.known !== true) throw notACursor(query.after as string);
    const events: LoggedEvent[] = [];
    for (const { event, xid_text, seq_text } of rows)
      if (event !== null)
        events.push({ ...event, cursor: cursorOf(xid_text as string, seq_text as string) });
    // A page that is not full read to the end: it resumes past every event it passed.
    const tail = rows[0];
    if (events.length < query.limit && tail?.tail_xid != null && tail.tail_seq != null)
      return { events, next: cursorOf(tail.tail_xid, tail.tail_seq) };
    const last = events[events.length - 1];
    return { events, next: last ? last.cursor : query.after };
  }

  /** Deletes up to `limit` of the oldest events that occurred before `before`. */
  async purge(before: Date, limit: number): Promise<number> {
    const rows = await this.context.query(this.#sql.purge, [before.toISOString(), limit]);
    return rows.length;
  }
}

// The cursor of the event at (xid, seq), given in decimal.
function cursorOf(xid: string, seq: string): string {
  return `${base36(xid)}.${base36(seq)}`;
}

// A decimal (64-bit) number in base 36.
function base36(decimal: string): string {
  return BigInt(decimal).toString(36);
}

// The xid and seq a cursor names, in decimal; 400 `invalidCursor` for text no log made.
function parseCursor(cursor: string): [string, string] {
  const match = CURSOR.exec(cursor);
  const xid = match ? fromBase36(match[1] as string) : -1n;
  const seq = match ? fromBase36(match[2] as string) : -1n;
  if (xid < 0n || seq < 0n || xid >= 2n ** 63n || seq >= 2n ** 63n) throw notACursor(cursor);
  return [xid.toString(), seq.toString()];
}

function notACursor(cursor: string) {
  return scimErrors.invalidCursor(`${previewJson(cursor)} is not a cursor of this event log.`);
}

function fromBase36(text: string): bigint {
  let n = 0n;
  for (const c of text) n = n * 36n + BigInt(parseInt(c, 36));
  return n;
}
