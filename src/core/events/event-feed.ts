import type { EventLog, EventPage } from '../../contracts/event-log.js';
import type { SubscriptionStore } from '../../contracts/event-subscriptions.js';
import { Subscribers } from '../subscriptions/subscribers.js';
import type {
  EventHandler,
  PagePreparer,
  SubscribeOptions,
  Subscription,
} from '../subscriptions/types.js';
import { ScimConfigError, scimErrors } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';

/** Options of {@link EventFeed.list}. */
export interface EventListOptions {
  /** Resume after this cursor (an event's `cursor`, or a page's `next`); omitted: the oldest. */
  readonly after?: string | undefined;
  /** Largest number of events to return: 1 to 1,000. Default 100. */
  readonly limit?: number | undefined;
  /** Only events of these types (`user.deactivated`, `class.created`); omitted: all. */
  readonly types?: readonly string[] | undefined;
}

/**
 * The directory event feed of `scim.events`: the events the store's log recorded with each
 * committed write, in commit order, read with a cursor.
 */
export interface EventFeed {
  /**
   * Lists a tenant's events after `options.after`, in commit order. A reader that passes the
   * last `next` it got never skips an event and never sees one twice, including one whose
   * transaction began before and committed after the page it read (see docs/events.md).
   *
   * @throws ScimError 400 `invalidValue` for a limit or types that are not as documented, 400
   *   `invalidCursor` for a cursor the log did not give (one past its newest event included),
   *   or, on a bounded log (`MemoryUserStore`'s `eventsKept`), one older than an event of the
   *   tenant and types it dropped unread.
   * @throws ScimConfigError when the store keeps no event log.
   * @example
   * ```ts
   * let after: string | undefined;
   * for (;;) {
   *   const page = await scim.events.list('district-42', { after, types: ['user.deactivated'] });
   *   for (const event of page.events) await revokeSessions(event.data.id);
   *   after = page.next;
   *   if (page.events.length === 0) break;
   * }
   * ```
   */
  list(tenant: string, options?: EventListOptions): Promise<EventPage>;
  /**
   * Deletes the events older than `events.retentionDays` now, in bounded batches (at most
   * 100,000 per call), as the service's hourly timer does; resolves to how many it deleted.
   * For a host that runs it from its own scheduler. Without a log, or with `Infinity`: 0.
   */
  purge(): Promise<number>;
  /**
   * Starts the durable subscriber `name`: `handler` gets every event of the log at least once,
   * in log order per tenant, with its checkpoint, retries and dead letters kept in the store
   * (`store.subscriptions`); another process subscribing under the same name shares the work.
   * `scim.close()` stops it. See docs/events.md, "Subscribers".
   *
   * @throws ScimConfigError when the store keeps no event log or no subscription state, the
   *   name already runs in this process, or an option cannot work.
   */
  subscribe(name: string, handler: EventHandler, options?: SubscribeOptions): Subscription;
}

/** The most events one page returns, and the default. */
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;
/** How often old events are purged, and how many one statement deletes. */
const PURGE_EVERY_MS = 60 * 60 * 1000;
const PURGE_BATCH = 1000;
/** The most batches one purge run deletes, so a run after a long pause stays bounded. */
const PURGE_BATCHES = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The feed of one `createScim`, and what stops its purge timer. */
export interface EventFeedService {
  readonly feed: EventFeed;
  /**
   * Wakes the durable subscribers of this process after a committed write: those `types` (the
   * log's types of its events, listed only when asked) concern.
   */
  kick(types: () => readonly string[]): void;
  /**
   * Starts a built-in subscriber (the welcome email's): `subscribe`, with a `prepare` that
   * reads what its handler needs for each page at once.
   */
  subscribeBuiltIn(
    name: string,
    handler: EventHandler,
    options: SubscribeOptions,
    prepare: PagePreparer,
  ): Subscription;
  /** Stops the purge timer and the subscribers, and waits for a purge under way. */
  close(): Promise<void>;
}

/**
 * Builds `scim.events` over the store's log, and purges events older than `retentionDays`
 * every hour from an unref'd timer (it never keeps a process alive), in batches.
 *
 * @throws ScimConfigError when `retentionDays` is not a number > 0.
 */
export function eventFeed(
  log: EventLog | undefined,
  retentionDays: number,
  now: () => Date,
  reportError: (error: unknown) => void,
  subscriptions?: SubscriptionStore,
): EventFeedService {
  if (typeof retentionDays !== 'number' || !(retentionDays > 0))
    throw new ScimConfigError(
      `events.retentionDays must be a number of days > 0, or Infinity (got ${previewJson(retentionDays)}).`,
    );
  let running: Promise<number> | undefined;
  const purge = async (): Promise<number> => {
    if (!log || retentionDays === Infinity) return 0;
    const before = new Date(now().getTime() - retentionDays * DAY_MS);
    let purged = 0;
    for (let batch = 0; batch < PURGE_BATCHES; batch++) {
      const n = await log.purge(before, PURGE_BATCH);
      purged += n;
      if (n < PURGE_BATCH) break;
    }
    // Delivery attempts and dead letters go with the events they were about.
    for (let batch = 0; subscriptions && batch < PURGE_BATCHES; batch++)
      if ((await subscriptions.purge(before, PURGE_BATCH)) < PURGE_BATCH) break;
    return purged;
  };
  const tick = () => {
    running ??= purge()
      .catch((error: unknown) => {
        reportError(error);
        return 0;
      })
      .finally(() => (running = undefined));
  };
  // Started by the first write or read, not here: some runtimes (workerd) refuse a timer set
  // while a module's global scope runs, where a service is often created.
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const startPurging = () => {
    if (timer !== undefined || closed || !log || retentionDays === Infinity) return;
    timer = setInterval(tick, PURGE_EVERY_MS);
    timer.unref?.();
  };
  const subscribers =
    log && new Subscribers({ log, store: subscriptions, now, onError: reportError });
  const subscribe = (
    name: string,
    handler: EventHandler,
    options?: SubscribeOptions,
    prepare?: PagePreparer,
  ): Subscription => {
    if (!subscribers)
      throw new ScimConfigError(
        `events.subscribe("${name}"): the store keeps no event log (its \`events\` is absent), so there is nothing to deliver.`,
      );
    return subscribers.subscribe(name, handler, options, prepare);
  };
  return {
    feed: {
      async list(tenant, options = {}) {
        if (!log)
          throw new ScimConfigError(
            'scim.events: the store keeps no event log (its `events` is absent), so there is no feed to read.',
          );
        if (typeof tenant !== 'string' || tenant === '')
          throw scimErrors.invalidValue(
            `The tenant must be a non-empty string (got ${previewJson(tenant)}).`,
          );
        startPurging();
        return await log.list({ tenant, limit: limitOf(options.limit), ...rest(options) });
      },
      purge: async () => {
        tick();
        return (await running) ?? 0;
      },
      subscribe: (name, handler, options) => subscribe(name, handler, options),
    },
    subscribeBuiltIn: subscribe,
    kick: (types) => {
      startPurging();
      subscribers?.kick(types);
    },
    close: async () => {
      closed = true;
      if (timer) clearInterval(timer);
      await Promise.all([running, subscribers?.close()]);
    },
  };
}

// The page size asked for, checked.
function limitOf(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw scimErrors.invalidValue(
      `"limit" must be a whole number from 1 to ${MAX_LIMIT} (got ${previewJson(limit)}).`,
    );
  return limit;
}

// `after` and `types`, checked, as the log's query takes them.
function rest(options: EventListOptions): { after?: string; types?: readonly string[] } {
  const { after, types } = options;
  if (after !== undefined && (typeof after !== 'string' || after === ''))
    throw scimErrors.invalidCursor(
      `"after" must be a cursor the feed returned (got ${previewJson(after)}).`,
    );
  if (
    types !== undefined &&
    (!Array.isArray(types) || !types.every((t) => typeof t === 'string' && t !== ''))
  )
    throw scimErrors.invalidValue(
      `"types" must be a list of event types (got ${previewJson(types)}).`,
    );
  return {
    ...(after === undefined ? {} : { after }),
    ...(types === undefined ? {} : { types }),
  };
}
