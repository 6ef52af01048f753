import type { LoggedEvent } from '../../contracts/event-log.js';
import type {
  AttemptPage,
  DeadLetter,
  DeadLetterState,
} from '../../contracts/event-subscriptions.js';

/** What a subscriber's handler gets with each event. */
export interface DeliveryContext {
  /**
   * Aborted when the attempt runs past `timeoutMs`: the handler should give up then, as the
   * attempt already counts as failed and will be retried. (Stopping the subscription waits
   * for the call in progress, up to that timeout, rather than aborting it.)
   */
  readonly signal: AbortSignal;
  /** 1 for the first attempt at this event, and so on. */
  readonly attempt: number;
}

/**
 * Handles one event for a durable subscriber. Resolving means delivered; throwing, rejecting or
 * running past `timeoutMs` is a failed attempt, retried with backoff. An event may come more
 * than once (after a crash, a timeout, a replay): use `event.id` as an idempotency key.
 */
export type EventHandler = (event: LoggedEvent, context: DeliveryContext) => Promise<void>;

/** The delays between retries of a failing event: doubling from `initialMs`, capped, jittered. */
export interface BackoffOptions {
  /** Delay before the first retry. Default 1,000 ms. */
  readonly initialMs?: number;
  /** Longest delay between two attempts. Default 1 hour. */
  readonly maxMs?: number;
}

/** How a durable subscriber delivers: timeouts, retries, leases, polling, batches. */
export interface SubscribeOptions {
  /** Longest wait for one handler call before it is aborted and counted failed. Default 10,000 ms. */
  readonly timeoutMs?: number;
  /**
   * Attempts at one event before it is given up as a dead letter (its tenant then moves on).
   * Default 20, which with the default backoff spans 4 to 8 hours (about 6 on average).
   */
  readonly maxAttempts?: number;
  /** The delays between retries. */
  readonly backoff?: BackoffOptions;
  /**
   * How long a claim of a tenant's partition (or of the walker) keeps other processes out.
   * Renewed between events; it must be at least twice `timeoutMs`. A process that dies holding
   * a claim leaves the tenant to others after this. Default 60,000 ms.
   */
  readonly leaseMs?: number;
  /**
   * Also look at the log every this many ms (writes of other instances, retries that came due,
   * partitions left by a crashed process). 0 turns polling off: only writes of this process
   * and retry timers wake the subscriber. Default 1,000 ms.
   */
  readonly pollIntervalMs?: number;
  /** Events read from the log at once. Default 100. */
  readonly batchSize?: number;
  /** Tenants delivered at once by this process. Default 4. */
  readonly concurrency?: number;
  /** Only events of these types; omitted: every type. */
  readonly types?: readonly string[];
  /**
   * Where a subscriber seen for the first time starts: after this cursor. Omitted: at the
   * oldest event the log keeps. Ignored once the subscriber has state in the store.
   */
  readonly startAfter?: string;
}

/** What {@link Subscription.deadLetters} lists. */
export interface DeadLetterListOptions {
  /** Only this tenant's. */
  readonly tenant?: string;
  /** Only letters in this state. */
  readonly state?: DeadLetterState;
  /** At most this many (default 100). */
  readonly limit?: number;
  /** Continue after this event id. */
  readonly afterEventId?: string;
}

/** What {@link Subscription.attempts} lists. */
export interface AttemptListOptions {
  /** The tenant whose attempts to list. */
  readonly tenant: string;
  /** Only attempts at this event. */
  readonly eventId?: string;
  /** Continue after this cursor (`next` of the previous page). */
  readonly after?: string;
  /** At most this many (default 100). */
  readonly limit?: number;
}

/** A durable subscriber, as `scim.events.subscribe` returns it. */
export interface Subscription {
  /** The subscriber's name: the key of its state in the store. */
  readonly name: string;
  /**
   * Stops delivering in this process: waits for the handler calls in flight (at most
   * `timeoutMs`) and hands every claimed tenant back. The state stays in the store.
   */
  stop(): Promise<void>;
  /**
   * Delivers everything due now in this process and resolves once it is done: what the log
   * shows now. On PostgreSQL the log shows a write only once every older transaction on the
   * database has ended, so a drain right after a write can end before that write's events
   * while another client of the database holds a transaction open; they are delivered by the
   * next round, and a test on a shared database drains until they are.
   */
  drain(): Promise<void>;
  /**
   * Delivers again every event after `after` (omitted: from the oldest kept): of `tenant`,
   * or of every tenant when it is omitted.
   *
   * @throws ScimError 400 `invalidCursor` (from the log) for a cursor the log did not give;
   *   nothing is moved then.
   */
  replay(from: { readonly tenant?: string; readonly after?: string }): Promise<void>;
  /** Lists the events this subscriber gave up on. */
  deadLetters(options?: DeadLetterListOptions): Promise<readonly DeadLetter[]>;
  /**
   * Delivers dead letters again (those of `tenant`, or of `eventIds`, or all); resolves to how
   * many were queued.
   */
  retry(select?: {
    readonly tenant?: string;
    readonly eventIds?: readonly string[];
  }): Promise<number>;
  /** Lists this subscriber's delivery attempts for one tenant, newest first. */
  attempts(options: AttemptListOptions): Promise<AttemptPage>;
}

/**
 * Reads, in one step, what a handler will need for a page of one tenant's events before they
 * are handled one by one (the welcome subscriber: which of the users still exist). Called
 * before every page and every batch of dead letters a handler is given. Internal to the
 * built-in subscribers; it must not throw (a handler that finds nothing prepared reads alone).
 */
export type PagePreparer = (tenant: string, events: readonly LoggedEvent[]) => Promise<void>;
