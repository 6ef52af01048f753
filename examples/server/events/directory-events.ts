// The example server's one view of the library's directory events: the feed (`scim.events.list`),
// durable subscribers (`scim.events.subscribe`) and the delivery attempts the subscribers keep
// (the store's `subscriptions.listAttempts`). Everything else in the example goes through this
// file, so the wiring to the library lives here alone.
import type { EventPage, LoggedEvent } from '../../../src/contracts/event-log.js';
import type { Scim, UserStore, WebhookAttempt } from '../../../src/index.js';

/** What the feed is asked for. */
export interface FeedQuery {
  /** Start after this cursor; omitted: from the oldest event kept. */
  readonly after?: string;
  /** At most this many events (at least 1). */
  readonly limit: number;
  /** Only events of these types. */
  readonly types?: readonly string[];
}

/** A durable subscriber's handler: resolves once the event is handled, rejects to retry. */
export type EventHandler = (event: LoggedEvent, context: WebhookAttempt) => Promise<void>;

/** How a subscriber retries. */
export interface SubscribeOptions {
  /** Longest wait for one handler call. */
  readonly timeoutMs?: number;
  /** How long a claim keeps other instances out; at least twice `timeoutMs`. */
  readonly leaseMs?: number;
  readonly maxAttempts: number;
  readonly backoff: { readonly initialMs: number; readonly maxMs: number };
}

/** A running subscriber. */
export interface Subscription {
  stop(): Promise<void> | void;
}

/** One delivery attempt of a subscriber at an event. */
export interface DeliveryAttempt {
  readonly subscriber: string;
  readonly tenant: string;
  readonly eventId: string;
  readonly eventType: string;
  /** 1 for the first attempt at the event. */
  readonly attempt: number;
  /** `ok`: delivered; `failed`: retried later; `dead`: the last attempt, given up. */
  readonly status: 'ok' | 'failed' | 'dead';
  readonly error?: string;
  /** When the attempt ended (RFC 3339). */
  readonly at: string;
}

/** What the attempts listing is asked for. */
export interface AttemptQuery {
  readonly tenant: string;
  readonly eventId?: string;
  readonly limit: number;
}

/** The directory events as the example server uses them. */
export interface DirectoryEvents {
  /** One page of a tenant's events in log order, and the cursor to resume after. */
  list(tenant: string, query: FeedQuery): Promise<EventPage>;
  /** Starts a durable subscriber. */
  subscribe(name: string, handler: EventHandler, options: SubscribeOptions): Subscription;
  /** A tenant's delivery attempts, newest first; undefined when the store keeps none. */
  readonly attempts?: (query: AttemptQuery) => Promise<readonly DeliveryAttempt[]>;
}

/**
 * The service's directory events, or undefined when its store keeps no event log (the store's
 * `events`); without the store's `subscriptions`, there is no attempts listing.
 */
export function directoryEvents(scim: Scim, store: UserStore): DirectoryEvents | undefined {
  if (store.events === undefined) return undefined;
  const kept = store.subscriptions;
  return {
    list: (tenant, query) => scim.events.list(tenant, query),
    subscribe: (name, handler, options) => scim.events.subscribe(name, handler, options),
    ...(kept === undefined
      ? {}
      : { attempts: async (query) => (await kept.listAttempts(query)).attempts }),
  };
}
