import type {
  DirectoryEvent,
  DirectoryEventData,
  EventListQuery,
  EventLog,
  EventPage,
  LoggedEvent,
} from '../../contracts/event-log.js';
import { scimErrors } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';
import { frozenCopy } from './clone-json.js';

type Json = Readonly<Record<string, unknown>>;
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** An event as the log keeps it, with its place in the log. */
interface Entry extends DirectoryEvent {
  readonly seq: number;
}

/** A copy of a kept event for a reader: the resource is shared (stored frozen), the rest new. */
function loggedEvent(entry: Entry): LoggedEvent {
  const { data } = entry;
  return {
    id: entry.id,
    type: entry.type,
    tenant: entry.tenant,
    occurredAt: entry.occurredAt,
    data: data.changed === undefined ? { ...data } : { ...data, changed: [...data.changed] },
    cursor: entry.seq.toString(36),
  };
}

/** The events a memory log keeps by default, the most recent ones. */
export const DEFAULT_EVENTS_KEPT = 10_000;

// A cursor is the entry's sequence number in base 36: short, and opaque enough.
const CURSOR = /^[1-9a-z][0-9a-z]{0,9}$/;

/**
 * The newest event the bound (`kept`) dropped, per tenant and type and over all tenants: a
 * reader whose cursor is older than one its query would list has missed it, and is told so
 * rather than resumed past it.
 */
class DroppedMarks {
  readonly #byTenant = new Map<string, Map<string, number>>();
  readonly #all = new Map<string, number>();

  mark(entry: Entry): void {
    let tenant = this.#byTenant.get(entry.tenant);
    if (!tenant) this.#byTenant.set(entry.tenant, (tenant = new Map()));
    tenant.set(entry.type, entry.seq);
    this.#all.set(entry.type, entry.seq);
  }

  /** The newest dropped event a query of `tenant` (all when omitted) and `types` would list. */
  newest(tenant: string | undefined, types: ReadonlySet<string> | undefined): number {
    const byType = tenant === undefined ? this.#all : this.#byTenant.get(tenant);
    let newest = 0;
    for (const [type, seq] of byType ?? [])
      if (!types || types.has(type)) newest = Math.max(newest, seq);
    return newest;
  }
}

/** Events in log order, oldest first; the oldest leave from the front (purge). */
class EntryQueue {
  #entries: (Entry | undefined)[] = [];
  #head = 0;

  push(entry: Entry): void {
    this.#entries.push(entry);
  }

  get first(): Entry | undefined {
    return this.#entries[this.#head];
  }

  /** Drops the oldest entry, compacting now and then so the array does not grow forever. */
  shift(): void {
    // Let go of the entry now, not at the next compaction: it holds a version of a resource.
    this.#entries[this.#head] = undefined;
    this.#head++;
    if (this.#head >= 1024 && this.#head * 2 >= this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The index of the first entry after `seq`, by binary search. */
  after(seq: number): number {
    let low = this.#head;
    let high = this.#entries.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.#entries[mid] as Entry).seq <= seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  at(index: number): Entry | undefined {
    return this.#entries[index];
  }
}

/**
 * The event log of the memory stores (`MemoryUserStore`'s `events`): an append-only list with
 * a sequence number, per tenant as well, so a tenant's page costs the same whatever the other
 * tenants wrote. A store records a write's events in the same synchronous step as the write,
 * so the log order is the commit order and a reader never sees a gap. Lost with the process,
 * like everything the memory stores keep, and bounded: the most recent `kept` events (default
 * 10,000) stay, the older ones go, and a reader that had not read them yet is refused rather
 * than resumed past them (see `list`).
 *
 * @example
 * ```ts
 * const store = new MemoryUserStore();
 * const resources = new MemoryResourceStore({ events: store.events });
 * const page = await store.events.list({ tenant: 'district-42', limit: 100 });
 * ```
 */
export class MemoryEventLog implements EventLog {
  readonly #all = new EntryQueue();
  readonly #tenants = new Map<string, EntryQueue>();
  readonly #dropped = new DroppedMarks();
  #nextSeq = 1;
  #size = 0;

  /**
   * Keeps at most `kept` events: past it the oldest go, so a process that writes for days
   * holds a bounded log (`MemoryUserStoreOptions.eventsKept`). A reader whose cursor is older
   * than an event dropped this way, of its tenant and types, is refused (400 `invalidCursor`)
   * instead of resumed past what it missed.
   */
  constructor(private readonly kept: number = DEFAULT_EVENTS_KEPT) {}

  /**
   * Appends the events of a committed write; the store calls it in the write's synchronous
   * step. `written` and `stored` name the resource as handed to the store and as it stores it:
   * an event carrying the first keeps the second, so the log shares the stored (frozen) copy
   * rather than copying it again.
   *
   * @internal
   */
  record(events: readonly DirectoryEvent[] | undefined, written?: object, stored?: object): void {
    if (!events) return;
    for (const event of events) {
      const given = event.data;
      // Built member by member (no spread, no freeze: this runs in every write); `list` hands
      // out copies, so what is kept here is never shared.
      const data: Mutable<DirectoryEventData> = { id: given.id, resourceType: given.resourceType };
      const { resource } = given;
      if (resource !== undefined)
        data.resource = resource === written ? (stored as Json) : frozenCopy(resource);
      if (given.changed !== undefined) data.changed = given.changed.slice();
      if (given.groupId !== undefined) data.groupId = given.groupId;
      if (given.userId !== undefined) data.userId = given.userId;
      if (given.memberType !== undefined) data.memberType = given.memberType;
      const entry: Entry = {
        seq: this.#nextSeq++,
        id: event.id,
        type: event.type,
        tenant: event.tenant,
        occurredAt: event.occurredAt,
        data,
      };
      this.#all.push(entry);
      let tenant = this.#tenants.get(event.tenant);
      if (!tenant) this.#tenants.set(event.tenant, (tenant = new EntryQueue()));
      tenant.push(entry);
      if (++this.#size > this.kept) {
        const dropped = this.#dropOldest();
        if (dropped) this.#dropped.mark(dropped);
      }
    }
  }

  /**
   * Returns the events after `query.after` in log order (every recorded event is committed).
   *
   * @throws ScimError 400 `invalidCursor` for a cursor this log did not give (one past its
   *   newest event included), or one older than an event of the query's tenant and types that
   *   the bound dropped before it was read.
   */
  async list(query: EventListQuery): Promise<EventPage> {
    const types = query.types && new Set(query.types);
    const after = query.after === undefined ? 0 : this.#cursorSeq(query.after);
    if (after > 0 && after < this.#dropped.newest(query.tenant, types))
      throw scimErrors.invalidCursor(
        `Events after ${previewJson(query.after)} were dropped before they were read: this in-memory log keeps only the most recent ${this.kept} (eventsKept). Read again from the oldest kept (no cursor), or replay the subscriber.`,
      );
    const queue = query.tenant === undefined ? this.#all : this.#tenants.get(query.tenant);
    const events: LoggedEvent[] = [];
    let passed: Entry | undefined;
    if (queue) {
      for (let i = queue.after(after); events.length < query.limit; i++) {
        const entry = queue.at(i);
        if (!entry) break;
        passed = entry;
        if (!types || types.has(entry.type)) events.push(loggedEvent(entry));
      }
    }
    // A page that is not full read to the end: it resumes past every event it passed, so a
    // reader of some types does not scan the others again.
    if (events.length < query.limit && passed) return { events, next: passed.seq.toString(36) };
    const last = events[events.length - 1];
    return { events, next: last ? last.cursor : query.after };
  }

  /** Deletes up to `limit` of the oldest events that occurred before `before`. */
  async purge(before: Date, limit: number): Promise<number> {
    const cutoff = before.getTime();
    let purged = 0;
    for (let entry = this.#all.first; entry && purged < limit; entry = this.#all.first) {
      if (Date.parse(entry.occurredAt) >= cutoff) break;
      this.#dropOldest();
      purged++;
    }
    return purged;
  }

  // Removes the oldest event, from the log and from its tenant's list (it is first in both).
  #dropOldest(): Entry | undefined {
    const entry = this.#all.first;
    if (!entry) return undefined;
    this.#all.shift();
    this.#size--;
    const tenant = this.#tenants.get(entry.tenant) as EntryQueue;
    tenant.shift();
    if (!tenant.first) this.#tenants.delete(entry.tenant);
    return entry;
  }

  // The sequence number a cursor names; 400 `invalidCursor` for text this log did not give,
  // a number past its newest event among them.
  #cursorSeq(cursor: string): number {
    const seq = CURSOR.test(cursor) ? parseInt(cursor, 36) : this.#nextSeq;
    if (seq >= this.#nextSeq)
      throw scimErrors.invalidCursor(`${previewJson(cursor)} is not a cursor of this event log.`);
    return seq;
  }
}
