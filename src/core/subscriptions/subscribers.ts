import type { EventLog } from '../../contracts/event-log.js';
import type { SubscriptionStore } from '../../contracts/event-subscriptions.js';
import { ScimConfigError } from '../../errors/index.js';
import { subscribeSettings } from './subscribe-settings.js';
import { SubscriptionRunner } from './subscription-runner.js';
import type { EventHandler, PagePreparer, SubscribeOptions, Subscription } from './types.js';

/** What the durable subscribers of one service read and keep their state in. */
export interface SubscribersParts {
  /** The event log the subscribers read. */
  readonly log: EventLog;
  /** Where their checkpoints, leases, attempts and dead letters are kept. */
  readonly store: SubscriptionStore | undefined;
  /** The service's clock (leases, retries and attempt times). */
  readonly now: () => Date;
  /** Hears of store failures and of deliveries made under a lost claim. */
  readonly onError: (error: unknown) => void;
}

/**
 * The durable subscribers of one service: `scim.events.subscribe` adds one, a committed write
 * wakes them all (`kick`), `scim.close()` stops them (`close`).
 */
export class Subscribers {
  readonly #parts: SubscribersParts;
  readonly #runners = new Map<string, SubscriptionRunner>();
  #closed = false;

  constructor(parts: SubscribersParts) {
    this.#parts = parts;
  }

  /**
   * Starts delivering the log to `handler` as the durable subscriber `name`: at least once, in
   * log order per tenant, with its checkpoint and retries kept in the store.
   *
   * @throws ScimConfigError when the store keeps no subscription state, the name is already
   *   subscribed in this process, or an option cannot work.
   */
  subscribe(
    name: string,
    handler: EventHandler,
    options: SubscribeOptions = {},
    prepare?: PagePreparer,
  ): Subscription {
    const settings = subscribeSettings(name, options);
    const { store, log, now, onError } = this.#parts;
    if (store === undefined)
      throw new ScimConfigError(
        `events.subscribe("${name}"): the store keeps no subscription state (store.subscriptions); use MemoryUserStore or PostgresUserStore, or add one to your store.`,
      );
    if (typeof handler !== 'function')
      throw new ScimConfigError(`events.subscribe("${name}"): the handler must be a function.`);
    if (this.#closed)
      throw new ScimConfigError(`events.subscribe("${name}"): the service is closed.`);
    if (this.#runners.has(name))
      throw new ScimConfigError(
        `events.subscribe("${name}"): this process already runs a subscriber of that name; stop it first.`,
      );
    const runner = new SubscriptionRunner({
      subscriber: name,
      ...{ log, store, handler, settings, now, onError, prepare },
    });
    this.#runners.set(name, runner);
    runner.start();
    const runners = this.#runners;
    const limit = (n: number | undefined) => Math.max(1, Math.min(n ?? 100, 1000));
    return {
      name,
      async stop() {
        if (runners.get(name) === runner) runners.delete(name);
        await runner.stop();
      },
      drain: () => runner.drain(),
      async replay(from) {
        // The log refuses a cursor it did not give (400 invalidCursor) before anything moves.
        if (from.after !== undefined)
          await log.list({
            after: from.after,
            limit: 1,
            ...(from.tenant === undefined ? {} : { tenant: from.tenant }),
          });
        await store.replay(name, from.tenant, from.after, now());
        runner.kick();
      },
      deadLetters: (query = {}) =>
        store.listDeadLetters({ ...query, subscriber: name, limit: limit(query.limit) }),
      async retry(select = {}) {
        const queued = await store.retryDeadLetters(name, select, now());
        if (queued > 0) runner.kick();
        return queued;
      },
      attempts: (query) =>
        store.listAttempts({ ...query, subscriber: name, limit: limit(query.limit) }),
    };
  }

  /**
   * Wakes the subscribers of this process that a committed write concerns: those of every
   * type, and those of a type among `types` (listed only when some subscriber has types).
   */
  kick(types: () => readonly string[]): void {
    // A write records an event or two: a list to look in, no set to build.
    let recorded: readonly string[] | undefined;
    for (const runner of this.#runners.values()) {
      const wanted = runner.types;
      if (wanted !== undefined) {
        recorded ??= types();
        if (!wanted.some((type) => recorded?.includes(type))) continue;
      }
      runner.wake();
    }
  }

  /** Stops every subscriber of this process (see {@link Subscription.stop}). */
  async close(): Promise<void> {
    this.#closed = true;
    const runners = [...this.#runners.values()];
    this.#runners.clear();
    await Promise.all(runners.map((r) => r.stop()));
  }
}
