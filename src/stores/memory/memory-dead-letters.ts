import type { LoggedEvent } from '../../contracts/event-log.js';
import type { DeadLetter, DeadLetterQuery } from '../../contracts/event-subscriptions.js';
import { cloneJson } from './clone-json.js';

interface Letter {
  readonly subscriber: string;
  readonly tenant: string;
  readonly event: LoggedEvent;
  attempts: number;
  error: string;
  deadAt: number;
  state: DeadLetter['state'];
}

const key = (subscriber: string, eventId: string) => `${subscriber}\u0000${eventId}`;
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The dead letters of a {@link MemorySubscriptionStore}, one per subscriber and event, each
 * with its own copy of the event.
 *
 * @internal
 */
export class MemoryDeadLetters {
  readonly #letters = new Map<string, Letter>();

  /** Records that `subscriber` gave `event` up, or gave a queued letter up again. */
  bury(subscriber: string, event: LoggedEvent, attempts: number, error: string, at: number): void {
    const letter = this.#letters.get(key(subscriber, event.id));
    if (letter) {
      letter.attempts += attempts;
      letter.error = error;
      letter.deadAt = at;
      letter.state = 'dead';
      return;
    }
    const { tenant } = event;
    const copy = cloneJson(event);
    this.#letters.set(key(subscriber, event.id), {
      ...{ subscriber, tenant, event: copy, attempts, error },
      ...{ deadAt: at, state: 'dead' },
    });
  }

  /** Forgets a letter delivered after a retry. */
  delete(subscriber: string, eventId: string): void {
    this.#letters.delete(key(subscriber, eventId));
  }

  /** Lists letters (see `SubscriptionStore.listDeadLetters`). */
  list(query: DeadLetterQuery): DeadLetter[] {
    const { subscriber, tenant, state, afterEventId } = query;
    return [...this.#letters.values()]
      .filter(
        (l) =>
          l.subscriber === subscriber &&
          (tenant === undefined || l.tenant === tenant) &&
          (state === undefined || l.state === state) &&
          (afterEventId === undefined || l.event.id > afterEventId),
      )
      .sort((a, b) => compare(a.event.id, b.event.id))
      .slice(0, Math.max(0, query.limit))
      .map((l) => ({
        subscriber: l.subscriber,
        tenant: l.tenant,
        event: cloneJson(l.event),
        attempts: l.attempts,
        error: l.error,
        deadAt: new Date(l.deadAt).toISOString(),
        state: l.state,
      }));
  }

  /** Queues the chosen `dead` letters; returns the tenant of each letter queued. */
  queue(
    subscriber: string,
    select: { readonly tenant?: string; readonly eventIds?: readonly string[] },
  ): string[] {
    const ids = select.eventIds === undefined ? undefined : new Set(select.eventIds);
    const tenants: string[] = [];
    for (const l of this.#letters.values()) {
      if (l.subscriber !== subscriber || l.state !== 'dead') continue;
      if (select.tenant !== undefined && l.tenant !== select.tenant) continue;
      if (ids !== undefined && !ids.has(l.event.id)) continue;
      l.state = 'queued';
      tenants.push(l.tenant);
    }
    return tenants;
  }

  /** Deletes up to `limit` letters given up before `cut` (ms), oldest first; returns how many. */
  purge(cut: number, limit: number): number {
    const old = [...this.#letters].filter(([, l]) => l.deadAt < cut);
    old.sort((a, b) => a[1].deadAt - b[1].deadAt);
    const gone = old.slice(0, Math.max(0, limit));
    for (const [id] of gone) this.#letters.delete(id);
    return gone.length;
  }
}
