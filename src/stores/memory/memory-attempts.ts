import type {
  AttemptListQuery,
  AttemptPage,
  AttemptRecord,
  DeliveryStatus,
  ListedDeliveryAttempt,
} from '../../contracts/event-subscriptions.js';
import { attemptSeq } from '../attempt-cursor.js';

interface Attempt {
  readonly seq: number;
  readonly subscriber: string;
  readonly tenant: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly attempt: number;
  readonly status: DeliveryStatus;
  readonly error: string | undefined;
  readonly at: number;
}

/**
 * The delivery attempts of a {@link MemorySubscriptionStore}, in the order recorded; each has
 * the next sequence number, which is also its listing cursor.
 *
 * @internal
 */
export class MemoryAttempts {
  #attempts: Attempt[] = [];
  #seq = 0;

  /** Records one attempt of `subscriber`. */
  add(
    subscriber: string,
    record: AttemptRecord,
    status: DeliveryStatus,
    error: string | undefined,
  ): void {
    const { event } = record;
    this.#attempts.push({
      seq: ++this.#seq,
      subscriber,
      tenant: event.tenant,
      eventId: event.id,
      eventType: event.type,
      attempt: record.attempt,
      status,
      error,
      at: record.at.getTime(),
    });
  }

  /** Lists one tenant's attempts, newest first (see `SubscriptionStore.listAttempts`). */
  list(query: AttemptListQuery): AttemptPage {
    const after = query.after === undefined ? Infinity : Number(attemptSeq(query.after));
    const page: ListedDeliveryAttempt[] = [];
    let more = false;
    for (let i = this.#attempts.length - 1; i >= 0; i--) {
      const a = this.#attempts[i]!;
      if (a.seq >= after || a.tenant !== query.tenant) continue;
      if (query.subscriber !== undefined && a.subscriber !== query.subscriber) continue;
      if (query.eventId !== undefined && a.eventId !== query.eventId) continue;
      if (page.length >= Math.max(1, query.limit)) {
        more = true;
        break;
      }
      page.push({
        subscriber: a.subscriber,
        tenant: a.tenant,
        eventId: a.eventId,
        eventType: a.eventType,
        attempt: a.attempt,
        status: a.status,
        ...(a.error === undefined ? {} : { error: a.error }),
        at: new Date(a.at).toISOString(),
        cursor: String(a.seq),
      });
    }
    return { attempts: page, next: more ? page.at(-1)?.cursor : undefined };
  }

  /** Deletes up to `limit` attempts that ended before `cut` (ms); returns how many. */
  purge(cut: number, limit: number): number {
    let deleted = 0;
    const kept: Attempt[] = [];
    for (const a of this.#attempts) {
      if (deleted < limit && a.at < cut) deleted++;
      else kept.push(a);
    }
    this.#attempts = kept;
    return deleted;
  }
}
