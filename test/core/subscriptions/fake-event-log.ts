import type {
  DirectoryEventType,
  EventListQuery,
  EventLog,
  EventPage,
  LoggedEvent,
} from '../../../src/contracts/event-log.js';
import { scimErrors } from '../../../src/errors/index.js';

/**
 * An in-memory event log for the subscriber tests: events get increasing positions, a cursor
 * is the position in fixed width, and a list reads after it. `hold()` keeps an appended event
 * invisible (a transaction not yet committed) and every later one with it, as the log contract
 * says: nothing becomes visible while an earlier event may still commit.
 */
export class FakeEventLog implements EventLog {
  readonly events: LoggedEvent[] = [];
  /** Position of the first held event; later ones wait for it. */
  #heldFrom: number | undefined;
  /** Calls of `list`, for tests that check what was read. */
  readonly reads: EventListQuery[] = [];

  /** Appends one event of `tenant` and returns it. */
  append(tenant: string, type: DirectoryEventType = 'user.created', id?: string): LoggedEvent {
    const n = this.events.length + 1;
    const event: LoggedEvent = {
      id: id ?? `ev-${n}`,
      type,
      tenant,
      occurredAt: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
      data: { id: `u-${n}`, resourceType: 'User' },
      cursor: cursorOf(n),
    };
    this.events.push(event);
    return event;
  }

  /** Appends `count` events of each tenant, interleaved: a1 b1 a2 b2 … */
  appendMany(tenants: readonly string[], count: number): void {
    for (let i = 0; i < count; i++) for (const t of tenants) this.append(t);
  }

  /** Keeps events from the next one appended invisible until `release()`. */
  hold(): void {
    this.#heldFrom = this.events.length + 1;
  }

  release(): void {
    this.#heldFrom = undefined;
  }

  async list(query: EventListQuery): Promise<EventPage> {
    this.reads.push(query);
    if (query.after !== undefined && !/^c:\d{8}$/.test(query.after))
      throw scimErrors.invalidCursor('That cursor was not given by this log.');
    const after = query.after === undefined ? 0 : Number(query.after.slice(2));
    const visible = this.#heldFrom === undefined ? this.events.length : this.#heldFrom - 1;
    const events = this.events
      .slice(after, visible)
      .filter((e) => query.tenant === undefined || e.tenant === query.tenant)
      .filter((e) => query.types === undefined || query.types.includes(e.type))
      .slice(0, query.limit);
    return { events, next: events.at(-1)?.cursor ?? query.after };
  }

  async purge(): Promise<number> {
    return 0;
  }
}

const cursorOf = (n: number) => `c:${String(n).padStart(8, '0')}`;
