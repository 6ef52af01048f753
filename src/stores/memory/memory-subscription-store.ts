import type {
  AttemptListQuery,
  AttemptPage,
  AttemptRecord,
  DeadLetter,
  DeadLetterQuery,
  DeliveryStatus,
  PartitionClaim,
  SubscriptionStore,
  WalkerClaim,
} from '../../contracts/event-subscriptions.js';
import { MemoryDeadLetters } from './memory-dead-letters.js';
import { MemoryAttempts } from './memory-attempts.js';

interface Walker {
  cursor: string | undefined;
  token: string | undefined;
  leaseUntil: number | undefined;
}

interface Partition {
  readonly subscriber: string;
  readonly tenant: string;
  checkpoint: string | undefined;
  attempts: number;
  lastError: string | undefined;
  /** When the partition is due (ms); `undefined`: idle. */
  dueAt: number | undefined;
  wakes: number;
  token: string | undefined;
  leaseUntil: number | undefined;
}

const key = (...parts: readonly string[]) => parts.join('\u0000');

/**
 * Keeps the delivery state of durable subscribers within one process, for a
 * {@link MemoryUserStore}: each method checks and changes what it touches in one synchronous
 * step, so calls never interleave. Attempts and dead letters are kept until {@link purge}.
 *
 * @internal
 */
export class MemorySubscriptionStore implements SubscriptionStore {
  readonly #walkers = new Map<string, Walker>();
  readonly #partitions = new Map<string, Partition>();
  readonly #letters = new MemoryDeadLetters();
  readonly #attempts = new MemoryAttempts();
  #tokens = 0;

  async claimWalker(
    subscriber: string,
    now: Date,
    leaseUntil: Date,
    startAfter: string | undefined,
  ): Promise<WalkerClaim | null> {
    let walker = this.#walkers.get(subscriber);
    if (walker === undefined) {
      walker = { cursor: startAfter, token: undefined, leaseUntil: undefined };
      this.#walkers.set(subscriber, walker);
    }
    if (walker.leaseUntil !== undefined && walker.leaseUntil > now.getTime()) return null;
    walker.token = this.#token();
    walker.leaseUntil = leaseUntil.getTime();
    return { cursor: walker.cursor, token: walker.token };
  }

  async advanceWalker(
    subscriber: string,
    token: string,
    advance: Parameters<SubscriptionStore['advanceWalker']>[2],
  ): Promise<boolean> {
    const walker = this.#walkers.get(subscriber);
    if (walker?.token !== token) return false;
    walker.cursor = advance.cursor;
    walker.leaseUntil = advance.leaseUntil.getTime();
    const now = advance.now.getTime();
    for (const tenant of advance.tenants) {
      const partition = this.#partition(subscriber, tenant, advance.from);
      partition.dueAt ??= now;
      partition.wakes++;
    }
    return true;
  }

  async releaseWalker(subscriber: string, token: string): Promise<boolean> {
    const walker = this.#walkers.get(subscriber);
    if (walker?.token !== token) return false;
    walker.token = undefined;
    walker.leaseUntil = undefined;
    return true;
  }

  async claimPartitions(
    subscriber: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<readonly PartitionClaim[]> {
    const at = now.getTime();
    const due = [...this.#partitions.values()]
      .filter(
        (p) =>
          p.subscriber === subscriber &&
          p.dueAt !== undefined &&
          p.dueAt <= at &&
          (p.leaseUntil === undefined || p.leaseUntil <= at),
      )
      .sort((a, b) => a.dueAt! - b.dueAt! || (a.tenant < b.tenant ? -1 : 1))
      .slice(0, Math.max(0, limit));
    return due.map((p) => {
      p.token = this.#token();
      p.leaseUntil = leaseUntil.getTime();
      const { tenant, checkpoint, attempts, token, wakes } = p;
      return { tenant, checkpoint, attempts, token, wakes };
    });
  }

  async renewPartition(
    subscriber: string,
    tenant: string,
    token: string,
    leaseUntil: Date,
  ): Promise<boolean> {
    const partition = this.#held(subscriber, tenant, token);
    if (partition) partition.leaseUntil = leaseUntil.getTime();
    return partition !== undefined;
  }

  async recordDelivered(
    subscriber: string,
    token: string,
    records: readonly AttemptRecord[],
    leaseUntil: Date,
  ): Promise<boolean> {
    const tenant = records[0]?.event.tenant;
    const partition = tenant === undefined ? undefined : this.#held(subscriber, tenant, token);
    if (!partition) return false;
    for (const record of records) {
      this.#attempt(subscriber, record, 'ok', undefined);
      if (record.fromDeadLetter) this.#letters.delete(subscriber, record.event.id);
      else partition.checkpoint = record.event.cursor;
    }
    partition.attempts = 0;
    partition.lastError = undefined;
    partition.leaseUntil = leaseUntil.getTime();
    return true;
  }

  async recordFailed(
    subscriber: string,
    token: string,
    record: AttemptRecord,
    error: string,
    retryAt: Date,
  ): Promise<boolean> {
    const partition = this.#held(subscriber, record.event.tenant, token);
    if (!partition) return false;
    this.#attempt(subscriber, record, 'failed', error);
    partition.attempts = record.attempt;
    partition.lastError = error;
    partition.dueAt = retryAt.getTime();
    partition.token = undefined;
    partition.leaseUntil = undefined;
    return true;
  }

  async recordDead(
    subscriber: string,
    token: string,
    record: AttemptRecord,
    error: string,
    leaseUntil: Date,
  ): Promise<boolean> {
    const { event } = record;
    const partition = this.#held(subscriber, event.tenant, token);
    if (!partition) return false;
    this.#attempt(subscriber, record, 'dead', error);
    this.#letters.bury(subscriber, event, record.attempt, error, record.at.getTime());
    if (!record.fromDeadLetter) partition.checkpoint = event.cursor;
    partition.attempts = 0;
    partition.lastError = undefined;
    partition.leaseUntil = leaseUntil.getTime();
    return true;
  }

  async releasePartition(
    subscriber: string,
    tenant: string,
    token: string,
    idleIfWakes?: number,
  ): Promise<boolean> {
    const partition = this.#held(subscriber, tenant, token);
    if (!partition) return false;
    partition.token = undefined;
    partition.leaseUntil = undefined;
    if (idleIfWakes !== undefined && partition.wakes === idleIfWakes) partition.dueAt = undefined;
    return true;
  }

  async replay(
    subscriber: string,
    tenant: string | undefined,
    after: string | undefined,
    now: Date,
  ): Promise<void> {
    const reset = (p: Partition) => {
      p.checkpoint = after;
      p.attempts = 0;
      p.lastError = undefined;
      p.dueAt = now.getTime();
      p.wakes++;
      // The holder can record nothing more; its lease still keeps others out until it ends.
      p.token = undefined;
    };
    if (tenant !== undefined) {
      reset(this.#partition(subscriber, tenant, after));
      return;
    }
    for (const p of this.#partitions.values()) if (p.subscriber === subscriber) reset(p);
    const walker = this.#walkers.get(subscriber);
    if (walker) {
      walker.cursor = after;
      walker.token = undefined;
      walker.leaseUntil = undefined;
    } else {
      this.#walkers.set(subscriber, { cursor: after, token: undefined, leaseUntil: undefined });
    }
  }

  async listDeadLetters(query: DeadLetterQuery): Promise<readonly DeadLetter[]> {
    return this.#letters.list(query);
  }

  async retryDeadLetters(
    subscriber: string,
    select: { readonly tenant?: string; readonly eventIds?: readonly string[] },
    now: Date,
  ): Promise<number> {
    const tenants = this.#letters.queue(subscriber, select);
    for (const tenant of tenants) {
      const partition = this.#partition(subscriber, tenant, undefined);
      partition.dueAt = Math.min(partition.dueAt ?? Infinity, now.getTime());
      partition.wakes++;
    }
    return tenants.length;
  }

  async listAttempts(query: AttemptListQuery): Promise<AttemptPage> {
    return this.#attempts.list(query);
  }

  async purge(before: Date, limit: number): Promise<number> {
    const cut = before.getTime();
    const deleted = this.#attempts.purge(cut, limit);
    return deleted + this.#letters.purge(cut, limit - deleted);
  }

  #token(): string {
    return `lease-${++this.#tokens}`;
  }

  /** The partition of (subscriber, tenant), created idle at `checkpoint` when missing. */
  #partition(subscriber: string, tenant: string, checkpoint: string | undefined): Partition {
    const id = key(subscriber, tenant);
    let partition = this.#partitions.get(id);
    if (partition === undefined) {
      partition = {
        subscriber,
        tenant,
        checkpoint,
        attempts: 0,
        lastError: undefined,
        dueAt: undefined,
        wakes: 0,
        token: undefined,
        leaseUntil: undefined,
      };
      this.#partitions.set(id, partition);
    }
    return partition;
  }

  #held(subscriber: string, tenant: string, token: string): Partition | undefined {
    const partition = this.#partitions.get(key(subscriber, tenant));
    return partition?.token === token ? partition : undefined;
  }

  #attempt(
    subscriber: string,
    record: AttemptRecord,
    status: DeliveryStatus,
    error: string | undefined,
  ): void {
    this.#attempts.add(subscriber, record, status, error);
  }
}
