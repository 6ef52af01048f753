import type { EventLog, LoggedEvent } from '../../contracts/event-log.js';
import type {
  AttemptRecord,
  PartitionClaim,
  SubscriptionStore,
} from '../../contracts/event-subscriptions.js';
import { isScimError } from '../../errors/index.js';
import { callHandler, errorText } from './call-handler.js';
import { retryDelay, type SubscribeSettings } from './subscribe-settings.js';
import type { EventHandler, PagePreparer } from './types.js';

/** Pages of the log one claim delivers at most before it hands the tenant back (still due). */
const PAGES_PER_CLAIM = 10;

/**
 * Longest time a delivery waits to be recorded. Deliveries are recorded in runs (one store
 * write for up to a page of events) so that a busy tenant costs the store one write per page,
 * not one per event; a process that dies delivers again what it had not recorded.
 */
const RECORD_WITHIN_MS = 1000;

/** The reason reported when a delivery was made under a claim that had passed to another. */
export class SubscriptionClaimLost extends Error {
  override readonly name = 'SubscriptionClaimLost';
}

/** What delivering one partition needs from its subscriber. */
export interface PartitionDeps {
  readonly subscriber: string;
  readonly log: EventLog;
  readonly store: SubscriptionStore;
  readonly handler: EventHandler;
  readonly settings: SubscribeSettings;
  readonly now: () => Date;
  readonly onError: (error: unknown) => void;
  /** Whether the subscription is stopping: deliver nothing more, hand the tenant back. */
  readonly stopping: () => boolean;
  /** Whether someone waits for everything due to be delivered now (`drain`): no pause then. */
  readonly draining: () => boolean;
  /** Asks for a delivery round at `at` (ms), when a retry is due. */
  readonly wakeAt: (at: number) => void;
  /** Reads what the handler needs for a page at once (a built-in subscriber's). */
  readonly prepare?: PagePreparer | undefined;
}

/** What an attempt came to for the partition: go on with the next event, or stop. */
type Next = 'next' | 'stop';

/**
 * Delivers one claimed partition: its queued dead letters first, then its tenant's events after
 * the checkpoint, in log order, one at a time, recorded under the claim's token in runs (at the
 * end of each page, within {@link RECORD_WITHIN_MS}, and before a failure is recorded). Stops at the first failure (the partition waits for its retry, alone),
 * when the claim is lost, after a bounded number of pages, or when the subscription stops; a
 * partition that found nothing more is released as idle. Resolves to `faulted` when the store or
 * the log failed, so that the caller waits before claiming again.
 */
export async function deliverPartition(
  deps: PartitionDeps,
  claim: PartitionClaim,
): Promise<'done' | 'caught-up' | 'faulted'> {
  const run = new PartitionRun(deps, claim);
  try {
    await run.deliver();
    return run.caughtUp ? 'caught-up' : 'done';
  } catch (error) {
    deps.onError(error);
    // A store or log failure: hand the tenant back, still due, for a later round to retry.
    await run.release(undefined).catch(deps.onError);
    return 'faulted';
  }
}

class PartitionRun {
  readonly #deps: PartitionDeps;
  readonly #claim: PartitionClaim;
  #attempts: number;
  /** When the claim's lease ends (ms), as of its claim or last extension. */
  #leaseEnds: number;
  #released = false;
  /** Whether the last page read was not full: the tenant had nothing more for now. */
  caughtUp = false;
  /** Deliveries made and not yet recorded, in order, and when the first of them was made. */
  #delivered: AttemptRecord[] = [];
  #firstDeliveredAt = 0;

  constructor(deps: PartitionDeps, claim: PartitionClaim) {
    this.#deps = deps;
    this.#claim = claim;
    this.#attempts = claim.attempts;
    // Claimed just now, by the caller's clock: the lease runs a full leaseMs from about here.
    this.#leaseEnds = deps.now().getTime() + deps.settings.leaseMs;
  }

  async deliver(): Promise<void> {
    const { store, log, subscriber, settings } = this.#deps;
    const { tenant } = this.#claim;
    const queued = await store.listDeadLetters({
      subscriber,
      tenant,
      state: 'queued',
      limit: settings.batchSize,
    });
    if (queued.length > 0)
      await this.#deps.prepare?.(
        tenant,
        queued.map((letter) => letter.event),
      );
    for (const letter of queued) {
      if (this.#deps.stopping()) return this.release(undefined);
      if ((await this.#attempt(letter.event, true)) === 'stop') return;
    }
    if (!(await this.#record())) return;
    let after = this.#claim.checkpoint;
    for (let page = 0; page < PAGES_PER_CLAIM; page++) {
      let events: readonly LoggedEvent[];
      try {
        ({ events } = await log.list({
          tenant,
          limit: settings.batchSize,
          ...(after === undefined ? {} : { after }),
          ...(settings.types === undefined ? {} : { types: settings.types }),
        }));
      } catch (error) {
        if (!isScimError(error) || error.scimType !== 'invalidCursor') throw error;
        // The log refuses the checkpoint (a bounded log dropped events after it unread): no
        // retry can help, so the tenant sleeps, reported, until its next event or a replay.
        this.#deps.onError(error);
        return this.release(this.#claim.wakes);
      }
      // Caught up: idle, unless the walker marked the tenant again meanwhile.
      if (events.length === 0) return this.release(this.#claim.wakes);
      await this.#deps.prepare?.(tenant, events);
      for (const event of events) {
        if (this.#deps.stopping()) return this.release(undefined);
        if ((await this.#attempt(event, false)) === 'stop') return;
        after = event.cursor;
      }
      if (!(await this.#record())) return;
      // Caught up with the writers: what they write next is read by a later round, a page at
      // once, rather than chased an event or two per read (unless a drain waits for it).
      if (events.length < settings.batchSize && !this.#deps.draining()) {
        this.caughtUp = true;
        return this.release(this.#claim.wakes);
      }
    }
    // A long backlog: hand the tenant back, still due, so other tenants get their turn.
    return this.release(undefined);
  }

  /** Ends the claim, idle when `idleIfWakes` is still the partition's count of marks. */
  async release(idleIfWakes: number | undefined): Promise<void> {
    if (this.#released || !(await this.#record())) return;
    this.#released = true;
    const { store, subscriber } = this.#deps;
    await store.releasePartition(subscriber, this.#claim.tenant, this.#claim.token, idleIfWakes);
  }

  // One attempt at `event`, recorded under the claim.
  async #attempt(event: LoggedEvent, fromDeadLetter: boolean): Promise<Next> {
    const { store, subscriber, settings, now, handler } = this.#deps;
    const { token } = this.#claim;
    if (!(await this.#keepLease())) return this.#lost();
    const attempt = this.#attempts + 1;
    let failure: unknown;
    let failed = false;
    try {
      await callHandler(handler, event, attempt, settings.timeoutMs);
    } catch (error) {
      failed = true;
      failure = error;
    }
    const at = now();
    const record = { event, attempt, at, fromDeadLetter };
    const leaseUntil = new Date(at.getTime() + settings.leaseMs);
    if (!failed) {
      if (this.#delivered.length === 0) this.#firstDeliveredAt = at.getTime();
      this.#delivered.push(record);
      this.#attempts = 0;
      const due =
        this.#delivered.length >= settings.batchSize ||
        at.getTime() - this.#firstDeliveredAt >= RECORD_WITHIN_MS;
      return !due || (await this.#record()) ? 'next' : 'stop';
    }
    // What went before is recorded first: the checkpoint moves in delivery order.
    if (!(await this.#record())) return 'stop';
    const error = errorText(failure);
    if (attempt >= settings.maxAttempts) {
      if (!(await store.recordDead(subscriber, token, record, error, leaseUntil)))
        return this.#lost();
      this.#leaseEnds = leaseUntil.getTime();
      this.#attempts = 0;
      return 'next';
    }
    const retryAt = at.getTime() + retryDelay(settings, attempt);
    // The failure ends the claim in the store; nothing is left to release.
    this.#released = true;
    if (await store.recordFailed(subscriber, token, record, error, new Date(retryAt)))
      this.#deps.wakeAt(retryAt);
    return 'stop';
  }

  /**
   * Records the deliveries not yet recorded, which extends the lease; false when the claim had
   * passed to another process (or a replay), which may deliver them again.
   */
  async #record(): Promise<boolean> {
    const records = this.#delivered;
    if (records.length === 0) return true;
    const { store, subscriber, settings, now } = this.#deps;
    const { token, tenant } = this.#claim;
    this.#delivered = [];
    const leaseUntil = now().getTime() + settings.leaseMs;
    if (await store.recordDelivered(subscriber, token, records, new Date(leaseUntil))) {
      this.#leaseEnds = leaseUntil;
      return true;
    }
    const ids = records.map((r) => r.event.id).join(', ');
    this.#deps.onError(
      new SubscriptionClaimLost(
        `Subscriber "${subscriber}" delivered events ${ids} of tenant "${tenant}", but its claim had passed to another process (or a replay), which may deliver them again. Make leaseMs longer than the longest stall of this process.`,
      ),
    );
    this.#lost();
    return false;
  }

  /**
   * Extends the lease before an attempt when less than a timeout and a third of the lease are
   * left of it, so that the claim outlives every attempt made under it (recording the
   * deliveries made so far does so); false when the claim is gone.
   */
  async #keepLease(): Promise<boolean> {
    const { store, subscriber, settings, now } = this.#deps;
    const at = now().getTime();
    if (this.#leaseEnds - at > settings.timeoutMs + settings.leaseMs / 3) return true;
    if (this.#delivered.length > 0) return this.#record();
    const leaseUntil = at + settings.leaseMs;
    const { tenant, token } = this.#claim;
    if (!(await store.renewPartition(subscriber, tenant, token, new Date(leaseUntil))))
      return false;
    this.#leaseEnds = leaseUntil;
    return true;
  }

  #lost(): Next {
    // Another holder (or a replay) owns the partition now; there is nothing of ours to release.
    this.#released = true;
    return 'stop';
  }
}
