/**
 * The directory event log: every committed write of any resource type leaves its events here,
 * recorded in the same atomic step as the write (the same transaction on PostgreSQL and PGlite,
 * the same critical section in the memory store), so that an application reading the log, or a
 * subscriber fed from it, never misses a change the IdP was told about.
 */

import type { GroupMember } from '../schema/group-schema.js';

/** The type of a directory event; a host-defined type's events are `<type>.created` and so on. */
export type DirectoryEventType =
  | 'user.created'
  | 'user.updated'
  | 'user.deactivated'
  | 'user.reactivated'
  | 'user.activated'
  | 'user.invited'
  | 'user.deleted'
  | 'group.created'
  | 'group.updated'
  | 'group.deleted'
  | 'group.member_added'
  | 'group.member_removed'
  | `${string}.created`
  | `${string}.updated`
  | `${string}.deleted`;

/** What an event says about the resource it concerns. */
export interface DirectoryEventData {
  /** The id of the resource the event concerns (for member events, the group's). */
  readonly id: string;
  /** The resource type's name: `User`, `Group`, or the host's (`Class`). */
  readonly resourceType: string;
  /**
   * The resource as it stood after the write (before it, for a delete). A group is shown
   * without its members: membership changes have events of their own.
   */
  readonly resource?: Readonly<Record<string, unknown>>;
  /** For `*.updated`: the top-level attributes whose values changed. */
  readonly changed?: readonly string[];
  /** For member events: the group's id. */
  readonly groupId?: string;
  /** For member events: the member's id (a user's, or a nested group's). */
  readonly userId?: string;
  /** For member events: the member's `type` (`User` or `Group`) when known. */
  readonly memberType?: string;
}

/** One event as a write records it. */
export interface DirectoryEvent {
  /** Unique and opaque; also the idempotency key a subscriber or webhook receiver sees. */
  readonly id: string;
  /** What happened. */
  readonly type: DirectoryEventType;
  /** The tenant the change happened in. */
  readonly tenant: string;
  /** When the write happened (RFC 3339). */
  readonly occurredAt: string;
  /** The resource the event concerns. */
  readonly data: DirectoryEventData;
}

/** An event as the log returns it: with the position a reader resumes after. */
export interface LoggedEvent extends DirectoryEvent {
  /**
   * Opaque position in the log. A reader that passes the last cursor it saw as `after` gets
   * every later event exactly once, including events of a transaction that began before and
   * committed after the one it saw.
   */
  readonly cursor: string;
}

/**
 * The events a write records with it (a write option of every store): the store records them
 * in the same atomic step as the write, and none when the write is refused or rolled back. A
 * store with no log ignores them; the core builds none for it.
 */
export interface EventEffects {
  /** The events of the write, in order. */
  readonly events?: readonly DirectoryEvent[];
}

/** What a membership write changed, as the store found it inside the write. */
export interface MembershipEventChange {
  /** The members the write added, each once. */
  readonly added: readonly GroupMember[];
  /** The members the write removed, each once. */
  readonly removed: readonly GroupMember[];
}

/**
 * The events of a write that changes memberships: only the store knows which members it
 * actually added or removed, so it calls `events` inside the write with what changed (once,
 * after every check passed) and records the events it returns in the same atomic step.
 */
export interface MembershipEventEffects {
  /** Lists the write's events (the group's own, then one per membership changed). */
  readonly events?: (change: MembershipEventChange) => readonly DirectoryEvent[];
}

/** What {@link EventLog.list} reads. */
export interface EventListQuery {
  /** Only this tenant's events; omitted: every tenant's. */
  readonly tenant?: string;
  /** Start after this cursor; omitted: from the oldest event kept. */
  readonly after?: string;
  /** Largest number of events to return (at least 1). */
  readonly limit: number;
  /** Only events of these types; omitted: all. */
  readonly types?: readonly string[];
}

/** One page of the log. */
export interface EventPage {
  /** The events, in log order. */
  readonly events: readonly LoggedEvent[];
  /**
   * The cursor to pass as `after` for the next page: the last event's, or the `after` given
   * when there were none (never `null`, so a poller always has a position to resume from). A
   * page with fewer events than its limit may instead give the position of the last event it
   * passed without listing it (one of another tenant or type), so the next read starts there.
   */
  readonly next: string | undefined;
}

/**
 * The reading side of the event log, which a store offers beside its resources (`events` of
 * `UserStore`). Writes add events through their write options; nothing else appends.
 */
export interface EventLog {
  /**
   * Returns events in log order after `query.after`. An event becomes visible only once every
   * event that could sort before it is committed, so that no later page holds an event that
   * sorts before this page's last cursor.
   *
   * @throws ScimError 400 `invalidCursor` (`scimErrors.invalidCursor()`) for a cursor the log
   *   did not give, one past its newest event included; a log that drops events before their
   *   retention (a bounded one) also for a cursor older than an event it dropped unread.
   */
  list(query: EventListQuery): Promise<EventPage>;
  /**
   * Deletes up to `limit` events that occurred before `before`, oldest first; resolves to how
   * many it deleted (fewer than `limit`: nothing older is left).
   */
  purge(before: Date, limit: number): Promise<number>;
}
