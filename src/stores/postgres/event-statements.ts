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
   * $1 xid, $2 seq (the rows after them), $3 limit, $4 tenant or NULL, $5 types (text[]) or
   * NULL, $6 the events of the first row already passed (it is the row at $1 and $2 + 1): `known`
   * (whether the log can have given the cursor) on every row, and at least one row; `event` is
   * NULL on the only row of an empty page, and on the rows past the first `$3` events of the
   * types asked for (after `$6`). With types, `tail_xid` and `tail_seq` name the last row of the
   * tenant (or of all) the read could have passed, matching or not.
   */
  readonly list: string;
  /**
   * $1 before (timestamptz), $2 limit: deletes the oldest rows until `limit` events (the last
   * row may take it past), returns each row's event count `n`.
   */
  readonly purge: string;
}

/**
 * The `INSERT` of a write's events, `param` (a jsonb array, see `eventsParam`) in order, one row
 * per element: on its own (in the write's transaction), or as a CTE of the write's own
 * statement, where `wrote` names
 * the write's CTE, which returns a row exactly when the write wrote. That CTE sees the write's
 * `RETURNING` rows, not its snapshot's, so a write that found no row, or a stale version,
 * records nothing; and it runs in the write's transaction, so its rows share the write's xid.
 * `doc`: the SQL of the document the write stores, which the events that carry it take (see
 * `eventsParam`).
 */
export function insertEvents(t: TableNames, param: string, wrote?: string, doc?: string): string {
  const when = wrote === undefined ? '' : ` WHERE EXISTS (SELECT 1 FROM ${wrote})`;
  return `${insertEventRows(t, doc)}
      FROM (SELECT ${param}::jsonb AS a) AS p,
        jsonb_array_elements(p.a) WITH ORDINALITY AS x(e, n)${when} ORDER BY n`;
}

/**
 * The `INSERT … SELECT` list of the event log's rows, one per element `e` of a write's events
 * (see `eventsParam`), `doc` being the SQL of the document the write stores, if it stores one;
 * the caller adds the `FROM` that names each `e`.
 */
export function insertEventRows(t: TableNames, doc?: string): string {
  // A row sent with `data.${WRITTEN_RESOURCE}` is stored with the document its write stores.
  const event =
    doc === undefined
      ? 'e'
      : `CASE WHEN e->'data' ? '${WRITTEN_RESOURCE}' THEN jsonb_set(e #- '{data,${WRITTEN_RESOURCE}}',
          '{data,resource}', ${doc}) ELSE e END`;
  // A row of several events of one write (`events`) lists their types, separated by spaces.
  return `INSERT INTO ${t.events} (tenant, type, occurred_at, event_count, event)
      SELECT e->>'tenant',
        CASE WHEN e ? 'events' THEN (SELECT string_agg(we->>1, ' ' ORDER BY wn)
          FROM jsonb_array_elements(e->'events') WITH ORDINALITY AS w(we, wn))
        ELSE e->>'type' END,
        (e->>'occurredAt')::timestamptz,
        CASE WHEN e ? 'members' THEN jsonb_array_length(e->'members')
          WHEN e ? 'events' THEN jsonb_array_length(e->'events') ELSE 1 END,
        ${event}`;
}

/**
 * The most events one statement of {@link recordEvents} inserts. A write that records more (a
 * large group's create or member replace: one event per membership changed) inserts them in
 * several statements of its transaction, in order: each parameter stays about a megabyte
 * rather than one text and one jsonb value of tens, and each statement stays far below the
 * statement timeout.
 */
export const EVENTS_PER_STATEMENT = 5_000;

/** The member of a row's `data`, as sent, saying that its resource is what its write stores. */
const WRITTEN_RESOURCE = 'writtenResource';

/**
 * The most events one row of the log holds. A write's consecutive member events of one group
 * (a large group's create or member replace has one per membership) are stored as one row per
 * this many, `members` listing what differs between them: a row costs the server about as much
 * as its JSON, and one per event makes such a write about twice as slow as without the log.
 */
export const EVENTS_PER_ROW = 1_000;

/** What a row of several member events keeps of each: its id, the member's id and `type`. */
export type RowMember = readonly [id: string, userId: string, memberType?: string];

/** A row of several member events, as sent and as stored (`event` column). */
export interface MemberEventsRow {
  readonly type: DirectoryEvent['type'];
  readonly tenant: string;
  readonly occurredAt: string;
  /** What every event of the row carries: the group's `id`, `resourceType` and `groupId`. */
  readonly data: Pick<DirectoryEvent['data'], 'id' | 'resourceType' | 'groupId'>;
  readonly members: readonly RowMember[];
}

/**
 * What a row of several events of one write keeps of each: its id, its type, and its data
 * besides the row's (`changed`, say), when it has any.
 */
export type RowEvent = readonly [
  id: string,
  type: DirectoryEvent['type'],
  data?: Omit<DirectoryEvent['data'], 'id' | 'resourceType' | 'resource'>,
];

/**
 * A row of several events of one write that carry the same resource (a create's `user.created`
 * and `user.invited`, a PATCH's `user.updated` and `user.deactivated`), as sent and as stored:
 * the resource is stored once. Its `type` column lists their types, separated by spaces.
 */
export interface WriteEventsRow {
  readonly tenant: string;
  readonly occurredAt: string;
  /** What every event of the row carries: the resource's `id` and `resourceType`, and it. */
  readonly data: Required<Pick<DirectoryEvent['data'], 'id' | 'resourceType' | 'resource'>>;
  readonly events: readonly RowEvent[];
}

/** A row of the log, as sent and as stored: one event, or several of one write. */
export type EventRow = DirectoryEvent | MemberEventsRow | WriteEventsRow;

const MEMBER_EVENT_TYPES: ReadonlySet<string> = new Set([
  'group.member_added',
  'group.member_removed',
]);
const MEMBER_EVENT_DATA: ReadonlySet<string> = new Set([
  'id',
  'resourceType',
  'groupId',
  'userId',
  'memberType',
]);

// Whether `event` is a member event with nothing besides what a row of them keeps.
function isMemberEvent(event: DirectoryEvent): boolean {
  const { data } = event;
  if (!MEMBER_EVENT_TYPES.has(event.type)) return false;
  if (typeof data.userId !== 'string' || typeof data.groupId !== 'string') return false;
  for (const key in data) if (!MEMBER_EVENT_DATA.has(key)) return false;
  return true;
}

// Whether member events `a` and `b` can share a row.
function sameRow(a: DirectoryEvent, b: DirectoryEvent): boolean {
  return (
    a.type === b.type &&
    a.tenant === b.tenant &&
    a.occurredAt === b.occurredAt &&
    a.data.id === b.data.id &&
    a.data.resourceType === b.data.resourceType &&
    a.data.groupId === b.data.groupId
  );
}

// The row of `run`, member events that share one (see `sameRow`).
function memberEventsRow(run: readonly DirectoryEvent[]): MemberEventsRow {
  const { type, tenant, occurredAt, data } = run[0] as DirectoryEvent;
  return {
    type,
    tenant,
    occurredAt,
    data: { id: data.id, resourceType: data.resourceType, groupId: data.groupId as string },
    members: run.map(({ id, data: { userId, memberType } }) =>
      memberType === undefined ? [id, userId as string] : [id, userId as string, memberType],
    ),
  };
}

/** The events of a row of the log, in order (one for a row of a single event). */
export function rowEvents(event: EventRow): readonly DirectoryEvent[] {
  if ('events' in event) {
    const { tenant, occurredAt, data } = event;
    return event.events.map(([id, type, more]) => ({
      id,
      type,
      tenant,
      occurredAt,
      data: { ...data, ...more },
    }));
  }
  if (!('members' in event)) return [event];
  const { type, tenant, occurredAt, data } = event;
  return event.members.map(([id, userId, memberType]) => ({
    id,
    type,
    tenant,
    occurredAt,
    data: memberType === undefined ? { ...data, userId } : { ...data, userId, memberType },
  }));
}

// Whether `b`, after `a` in a write's events, can share a row of several events of one write
// with it: the same resource (the same object), tenant and time.
function sameResourceRow(a: DirectoryEvent, b: DirectoryEvent): boolean {
  return (
    a.data.resource !== undefined &&
    a.data.resource === b.data.resource &&
    a.tenant === b.tenant &&
    a.occurredAt === b.occurredAt &&
    a.data.id === b.data.id &&
    a.data.resourceType === b.data.resourceType
  );
}

// The row of `run`, events of one write that carry one resource (see `sameResourceRow`).
function writeEventsRow(run: readonly DirectoryEvent[]): WriteEventsRow {
  const { tenant, occurredAt, data } = run[0] as DirectoryEvent;
  return {
    tenant,
    occurredAt,
    data: {
      id: data.id,
      resourceType: data.resourceType,
      resource: data.resource as NonNullable<typeof data.resource>,
    },
    events: run.map(
      ({ id, type, data: { id: _id, resourceType: _type, resource: _r, ...more } }) =>
        Object.keys(more).length === 0 ? [id, type] : [id, type, more],
    ),
  };
}

// `events` as the rows of the log: each run of two or more that can share a row as one (member
// events at most EVENTS_PER_ROW to a row).
function rowsOf(events: readonly DirectoryEvent[]): EventRow[] {
  const out: EventRow[] = [];
  let i = 0;
  while (i < events.length) {
    const first = events[i] as DirectoryEvent;
    let end = i + 1;
    if (isMemberEvent(first)) {
      while (
        end < events.length &&
        end - i < EVENTS_PER_ROW &&
        isMemberEvent(events[end] as DirectoryEvent) &&
        sameRow(first, events[end] as DirectoryEvent)
      )
        end++;
      out.push(end - i === 1 ? first : memberEventsRow(events.slice(i, end)));
    } else {
      while (end < events.length && sameResourceRow(first, events[end] as DirectoryEvent)) end++;
      out.push(end - i === 1 ? first : writeEventsRow(events.slice(i, end)));
    }
    i = end;
  }
  return out;
}

/**
 * A write's events as the statements that record them take them; `undefined` for none. Runs of
 * member events go several to a row (`EVENTS_PER_ROW`), and so do consecutive events that
 * carry the same resource (a create's `user.created` and `user.invited`, a PATCH's
 * `user.updated` and `user.deactivated`): one row, the resource stored once. The resource the
 * write stores as its document, `written` (the object whose `JSON.stringify` is the document's
 * parameter), is not sent with the events at all: the statement, given that document
 * (`insertEvents`' `doc`), stores each row that carries it with it.
 */
export function eventsParam(
  events: readonly DirectoryEvent[] | undefined,
  written?: object,
): string | undefined {
  if (!events || events.length === 0) return undefined;
  const sent = rowsOf(events).map((row) => {
    if (written === undefined || !('resource' in row.data) || row.data.resource !== written)
      return row;
    const { resource: _resource, ...rest } = row.data;
    return { ...row, data: { ...rest, [WRITTEN_RESOURCE]: true } };
  });
  return JSON.stringify(sent);
}

/** In the list statement, the events of a row already passed: $6 for the first row, else 0. */
const PASSED = `(CASE WHEN xid = $1::xid8 AND seq = $2::bigint + 1 THEN $6::bigint ELSE 0 END)`;

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
    // A row holds up to EVENTS_PER_ROW events: the rows past what the page can show are
    // returned without their events, so that a page reads `limit` events, not rows. What a row
    // shows (`shown`) is its events after those already passed, of the types asked for: all of
    // a row of one type the filter let through, and for a row of one write, whose type column
    // lists its events' types, those it lists. Each row after the first shows one or more, so
    // `limit` of them and the first fill a page.
    list: `SELECT b.known, t.tail_xid, t.tail_seq, e.xid_text, e.seq_text,
        CASE WHEN sum(e.shown) OVER (ORDER BY e.xid, e.seq ROWS UNBOUNDED PRECEDING)
          - e.shown < $3::bigint THEN e.event END AS event
      FROM (SELECT $1::xid8 < pg_snapshot_xmin(pg_current_snapshot()) AS known) AS b
      LEFT JOIN LATERAL (
        SELECT xid::text AS tail_xid, seq::text AS tail_seq FROM ${t.events}
        WHERE b.known AND $5::text[] IS NOT NULL AND (xid, seq) > ($1::xid8, $2::bigint)
          AND xid < pg_snapshot_xmin(pg_current_snapshot())
          AND ($4::text IS NULL OR tenant = $4)
        ORDER BY xid DESC, seq DESC LIMIT 1
      ) AS t ON true
      LEFT JOIN LATERAL (
        SELECT xid, seq, xid::text AS xid_text, seq::text AS seq_text, event,
          CASE WHEN strpos(type, ' ') = 0 THEN event_count - ${PASSED}
            ELSE (SELECT count(*) FROM unnest(string_to_array(type, ' ')) WITH ORDINALITY AS u(ut, ui)
              WHERE ui > ${PASSED} AND ($5::text[] IS NULL OR ut = ANY($5::text[]))) END AS shown
        FROM ${t.events}
        WHERE b.known AND (xid, seq) > ($1::xid8, $2::bigint)
          AND xid < pg_snapshot_xmin(pg_current_snapshot())
          AND ($4::text IS NULL OR tenant = $4)
          AND ($5::text[] IS NULL OR type = ANY($5::text[])
            OR (strpos(type, ' ') > 0 AND string_to_array(type, ' ') && $5::text[]))
        ORDER BY xid, seq LIMIT $3::bigint + 1
      ) AS e ON true
      ORDER BY e.xid, e.seq`,
    // The oldest rows until `limit` events: at least one row, at most `limit` rows.
    purge: `DELETE FROM ${t.events} WHERE (xid, seq) IN (
        SELECT xid, seq FROM (
          SELECT xid, seq, event_count, sum(event_count) OVER (
            ORDER BY occurred_at, xid, seq ROWS UNBOUNDED PRECEDING) AS upto
          FROM ${t.events} WHERE occurred_at < $1::timestamptz
          ORDER BY occurred_at, xid, seq LIMIT $2) AS oldest
        WHERE upto - event_count < $2)
      RETURNING event_count AS n`,
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
