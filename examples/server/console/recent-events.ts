import type { LoggedEvent } from '../../../src/contracts/event-log.js';
import type { DirectoryEvents } from '../events/directory-events.js';

/** How much of each tenant's log the console follows. */
export interface RecentEventsLimits {
  /** The newest events kept per tenant, the most the events page can page through. */
  readonly keep: number;
  /** Events read from the log per call. */
  readonly batch: number;
  /** Calls per page view: a long log is caught up with over several views. */
  readonly batchesPerView: number;
  /** Tenants followed at once; the one viewed longest ago is dropped first. */
  readonly tenants: number;
}

/** The defaults of {@link RecentEventsLimits}. */
export const DEFAULT_RECENT_EVENTS_LIMITS: RecentEventsLimits = {
  keep: 200,
  batch: 500,
  batchesPerView: 20,
  tenants: 100,
};

/** A tenant's newest events, newest first, and whether the console has read its whole log. */
export interface NewestEvents {
  readonly events: readonly LoggedEvent[];
  readonly caughtUp: boolean;
  /** Events read from the log so far for this tenant. */
  readonly read: number;
}

interface Tail {
  after: string | undefined;
  kept: LoggedEvent[];
  read: number;
  caughtUp: boolean;
  reading: Promise<void> | undefined;
}

/**
 * Follows each viewed tenant's event log from its oldest event to its newest, keeping the
 * newest `keep`: the feed is read forwards only, so showing the newest first means having read
 * up to the end. Each view reads what was added since the last one, within a bound.
 */
export class RecentEvents {
  readonly #tails = new Map<string, Tail>();

  constructor(
    private readonly events: DirectoryEvents,
    private readonly limits: RecentEventsLimits = DEFAULT_RECENT_EVENTS_LIMITS,
  ) {}

  /** Reads what the tenant's log gained since the last view and returns its newest events. */
  async newest(tenant: string): Promise<NewestEvents> {
    let tail = this.#tails.get(tenant);
    if (tail === undefined) {
      tail = { after: undefined, kept: [], read: 0, caughtUp: false, reading: undefined };
      if (this.#tails.size >= this.limits.tenants) {
        const oldest = this.#tails.keys().next().value;
        if (oldest !== undefined) this.#tails.delete(oldest);
      }
    }
    // Most recently viewed last, so the first key is the one to drop.
    this.#tails.delete(tenant);
    this.#tails.set(tenant, tail);
    // Two views at once share one read, so the kept events hold no event twice.
    const own = tail;
    own.reading ??= this.#catchUp(tenant, own).finally(() => (own.reading = undefined));
    await own.reading;
    return { events: [...own.kept].reverse(), caughtUp: own.caughtUp, read: own.read };
  }

  async #catchUp(tenant: string, tail: Tail): Promise<void> {
    const { batch, batchesPerView, keep } = this.limits;
    tail.caughtUp = false;
    for (let i = 0; i < batchesPerView; i++) {
      const page = await this.events.list(tenant, {
        limit: batch,
        ...(tail.after === undefined ? {} : { after: tail.after }),
      });
      tail.kept.push(...page.events);
      if (tail.kept.length > keep) tail.kept.splice(0, tail.kept.length - keep);
      tail.read += page.events.length;
      tail.after = page.next ?? tail.after;
      if (page.events.length < batch) {
        tail.caughtUp = true;
        return;
      }
    }
  }
}
