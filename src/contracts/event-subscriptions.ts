import type { LoggedEvent } from './event-log.js';

/**
 * The delivery state of durable subscribers, which a store keeps beside the event log
 * (`subscriptions` of `UserStore`).
 *
 * A subscriber's work is split into partitions, one per tenant, so that a tenant whose events
 * fail waits alone. Two kinds of lease, each with a fencing token chosen by the store, keep
 * several processes sharing one store from doing the same work at once:
 *
 * - the **walker** of a subscriber (one row per subscriber) reads the whole log after its cursor
 *   and marks the partitions of the tenants it found as due;
 * - a **partition** (one row per subscriber and tenant) is claimed when due and delivers its
 *   tenant's events after its checkpoint, in log order.
 *
 * Every change after a claim is conditional on its token still being current, and resolves to
 * whether it took effect.
 */

/** What a claim of a subscriber's walker gives. */
export interface WalkerClaim {
  /** The walker's cursor: the log position it has read up to (`undefined`: the start). */
  readonly cursor: string | undefined;
  /** The fencing token of this claim. */
  readonly token: string;
}

/** A claimed partition: one subscriber's delivery state for one tenant. */
export interface PartitionClaim {
  /** The tenant whose events this partition delivers. */
  readonly tenant: string;
  /**
   * The cursor of the last event delivered (or dead-lettered); `undefined`: from the oldest
   * event kept.
   */
  readonly checkpoint: string | undefined;
  /** Failed attempts at the event after the checkpoint so far. */
  readonly attempts: number;
  /** The fencing token of this claim. */
  readonly token: string;
  /**
   * How many times the partition was marked due so far; handed back to
   * {@link SubscriptionStore.releasePartition} so that a mark made during the claim is kept.
   */
  readonly wakes: number;
}

/** The outcome of one delivery attempt. */
export type DeliveryStatus = 'ok' | 'failed' | 'dead';

/** One delivery attempt, as kept for inspection (a console lists them per tenant). */
export interface DeliveryAttempt {
  /** The subscriber's name. */
  readonly subscriber: string;
  /** The event's tenant. */
  readonly tenant: string;
  /** The event's id. */
  readonly eventId: string;
  /** The event's type. */
  readonly eventType: string;
  /** 1 for the first attempt at the event, and so on. */
  readonly attempt: number;
  /** `ok`: delivered; `failed`: will be retried; `dead`: the last attempt, given up. */
  readonly status: DeliveryStatus;
  /** The handler's error, for `failed` and `dead`. */
  readonly error?: string;
  /** When the attempt ended (RFC 3339). */
  readonly at: string;
}

/** A delivery attempt as a listing returns it, with the position to resume after. */
export interface ListedDeliveryAttempt extends DeliveryAttempt {
  /** Opaque position in the listing. */
  readonly cursor: string;
}

/** What {@link SubscriptionStore.listAttempts} reads. */
export interface AttemptListQuery {
  /** The tenant whose attempts to list. */
  readonly tenant: string;
  /** Only this subscriber's; omitted: every subscriber's. */
  readonly subscriber?: string;
  /** Only attempts at this event; omitted: every event's. */
  readonly eventId?: string;
  /** Continue after this cursor (an attempt's `cursor`); omitted: from the newest. */
  readonly after?: string;
  /** Largest number of attempts to return (at least 1). */
  readonly limit: number;
}

/** One page of delivery attempts, newest first. */
export interface AttemptPage {
  /** The attempts, newest first. */
  readonly attempts: readonly ListedDeliveryAttempt[];
  /** The cursor of the next page; `undefined` when there is none. */
  readonly next: string | undefined;
}

/** Where a dead letter stands: given up, or queued for another delivery by a retry. */
export type DeadLetterState = 'dead' | 'queued';

/** An event a subscriber gave up on after its last attempt, kept with the last error. */
export interface DeadLetter {
  /** The subscriber's name. */
  readonly subscriber: string;
  /** The event's tenant. */
  readonly tenant: string;
  /** The event, as it was delivered (kept even after the log purges it). */
  readonly event: LoggedEvent;
  /** Attempts made in all. */
  readonly attempts: number;
  /** The last attempt's error. */
  readonly error: string;
  /** When it was given up (RFC 3339); after a retry that failed again, the latest time. */
  readonly deadAt: string;
  /** `queued` after a retry, until it is delivered (and removed) or given up again. */
  readonly state: DeadLetterState;
}

/** What {@link SubscriptionStore.listDeadLetters} reads. */
export interface DeadLetterQuery {
  /** The subscriber's name. */
  readonly subscriber: string;
  /** Only this tenant's; omitted: every tenant's. */
  readonly tenant?: string;
  /** Only letters in this state; omitted: both. */
  readonly state?: DeadLetterState;
  /** Largest number of letters to return (at least 1). */
  readonly limit: number;
  /** Continue after this event id (the last letter of the previous page). */
  readonly afterEventId?: string;
}

/** What a partition records with an attempt: the event and the attempt's number. */
export interface AttemptRecord {
  /** The event delivered. */
  readonly event: LoggedEvent;
  /** 1 for the first attempt at the event, and so on. */
  readonly attempt: number;
  /** When the attempt ended. */
  readonly at: Date;
  /** Whether the event is a queued dead letter (its checkpoint does not move). */
  readonly fromDeadLetter: boolean;
}

/** The durable state of subscribers: walkers, partitions, attempts and dead letters. */
export interface SubscriptionStore {
  /**
   * Claims the walker of `subscriber` when no one holds it (no lease, or one ended by `now`):
   * leases it until `leaseUntil` under a new token. A subscriber never seen before starts at
   * `startAfter` (`undefined`: the oldest event kept). Resolves to `null` when another process
   * holds it.
   */
  claimWalker(
    subscriber: string,
    now: Date,
    leaseUntil: Date,
    startAfter: string | undefined,
  ): Promise<WalkerClaim | null>;
  /**
   * In one atomic step, if `token` is current: moves the walker's cursor to `cursor`, extends
   * its lease to `leaseUntil`, and marks the partition of each of `tenants` due at `now` (one
   * already due, or waiting for a retry, keeps its time) and counts a wake on it; a partition
   * that does not exist yet is created with `checkpoint` `from` (the cursor the page was read
   * after). Resolves to whether it did.
   */
  advanceWalker(
    subscriber: string,
    token: string,
    advance: {
      readonly from: string | undefined;
      readonly cursor: string | undefined;
      readonly tenants: readonly string[];
      readonly now: Date;
      readonly leaseUntil: Date;
    },
  ): Promise<boolean>;
  /** Ends the walker's lease if `token` is current; resolves to whether it did. */
  releaseWalker(subscriber: string, token: string): Promise<boolean>;

  /**
   * Claims up to `limit` partitions of `subscriber` that are due at `now` and not under a lease,
   * oldest due first; leases each until `leaseUntil` under a new token, which makes every earlier
   * token of that partition stale.
   */
  claimPartitions(
    subscriber: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<readonly PartitionClaim[]>;
  /** Extends a partition's lease while `token` is current; resolves to whether it did. */
  renewPartition(
    subscriber: string,
    tenant: string,
    token: string,
    leaseUntil: Date,
  ): Promise<boolean>;
  /**
   * Records delivered events if `token` is current, in one atomic step: an `ok` attempt for
   * each record, the checkpoint moved to the cursor of the last one that is not a queued dead
   * letter (queued letters are removed instead), failed attempts reset, the lease extended to
   * `leaseUntil`. `records` are at least one, all of the claimed partition's tenant, in the
   * order they were delivered: the runner records a run of deliveries at once, so a process
   * that dies before recording them delivers them again.
   */
  recordDelivered(
    subscriber: string,
    token: string,
    records: readonly AttemptRecord[],
    leaseUntil: Date,
  ): Promise<boolean>;
  /**
   * Records a failed attempt if `token` is current, in one atomic step: the attempt
   * (`failed`, with `error`), the partition's failed attempts set to `record.attempt`, its
   * last error kept, due again at `retryAt`, and its lease ended.
   */
  recordFailed(
    subscriber: string,
    token: string,
    record: AttemptRecord,
    error: string,
    retryAt: Date,
  ): Promise<boolean>;
  /**
   * Gives an event up if `token` is current, in one atomic step: the attempt (`dead`), the
   * dead letter (a queued one goes back to `dead`), the checkpoint moved past the event (not
   * for a queued letter), failed attempts reset, the lease extended to `leaseUntil`.
   */
  recordDead(
    subscriber: string,
    token: string,
    record: AttemptRecord,
    error: string,
    leaseUntil: Date,
  ): Promise<boolean>;
  /**
   * Ends a partition's lease if `token` is current. With `idleIfWakes`, the partition is no
   * longer due when it was not marked due again since its claim (its wakes are still that
   * number); otherwise it stays as due as it was. Resolves to whether the token was current.
   */
  releasePartition(
    subscriber: string,
    tenant: string,
    token: string,
    idleIfWakes?: number,
  ): Promise<boolean>;

  /**
   * Moves checkpoints back (or forward) to `after` (`undefined`: the oldest event kept), due
   * at `now`, with failed attempts reset: the partition of `tenant`, created if missing, or
   * with `tenant` `undefined` every partition of the subscriber and its walker. A partition
   * under a lease loses its token (its holder can record nothing more) but keeps the lease's
   * end, so no one delivers it before the holder's attempt in flight has ended; the walker's
   * lease ends at once (it delivers nothing).
   */
  replay(
    subscriber: string,
    tenant: string | undefined,
    after: string | undefined,
    now: Date,
  ): Promise<void>;
  /** Lists dead letters, ordered by event id. */
  listDeadLetters(query: DeadLetterQuery): Promise<readonly DeadLetter[]>;
  /**
   * Queues `dead` letters for another delivery and marks their partitions due at `now`: those
   * of `tenant` (every tenant's when omitted) whose event is among `eventIds` (any when
   * omitted). Resolves to how many it queued.
   */
  retryDeadLetters(
    subscriber: string,
    select: { readonly tenant?: string; readonly eventIds?: readonly string[] },
    now: Date,
  ): Promise<number>;
  /** Lists delivery attempts of one tenant, newest first. */
  listAttempts(query: AttemptListQuery): Promise<AttemptPage>;
  /**
   * Deletes up to `limit` delivery attempts, and then dead letters, that ended before `before`,
   * oldest first; resolves to how many it deleted (fewer than `limit`: nothing older is left).
   */
  purge(before: Date, limit: number): Promise<number>;
}
