import type { LoggedEvent } from '../../contracts/event-log.js';
import type {
  AttemptListQuery,
  AttemptPage,
  AttemptRecord,
  DeadLetter,
  DeadLetterQuery,
  PartitionClaim,
  SubscriptionStore,
  WalkerClaim,
} from '../../contracts/event-subscriptions.js';
import { attemptSeq } from '../attempt-cursor.js';
import type { StoreContext } from './store-context.js';
import { subscriptionStatements, type SubscriptionStatements } from './subscription-statements.js';

interface PartitionRow {
  tenant: string;
  checkpoint_cursor: string | null;
  attempts: number | string;
  token: string;
  wakes: number | string;
}

interface LetterRow {
  subscriber: string;
  tenant: string;
  event: LoggedEvent;
  attempts: number | string;
  error: string;
  dead_at: Date | string;
  state: DeadLetter['state'];
}

interface AttemptRow {
  seq: string | number;
  subscriber: string;
  tenant: string;
  event_id: string;
  event_type: string;
  attempt: number | string;
  status: 'ok' | 'failed' | 'dead';
  error: string | null;
  at: Date | string;
}

const iso = (at: Date | string) => new Date(at).toISOString();

/**
 * Keeps the delivery state of durable subscribers in PostgreSQL, beside the event log. Claims
 * lock rows with `FOR UPDATE SKIP LOCKED`, take a lease and set a random token; every later
 * change is an `UPDATE … WHERE … AND token = $n`, and a change that writes several rows (an
 * attempt and the checkpoint, the walker's cursor and the partitions it marks) is one
 * statement, so it takes effect whole or not at all.
 *
 * Created by {@link PostgresUserStore}; reach it as `store.subscriptions`.
 */
export class PostgresSubscriptionStore implements SubscriptionStore {
  private readonly sql: SubscriptionStatements;

  /** @internal */
  constructor(private readonly context: StoreContext) {
    this.sql = subscriptionStatements(context.tables);
  }

  /** Claims a subscriber's walker (see `SubscriptionStore.claimWalker`). */
  async claimWalker(
    subscriber: string,
    now: Date,
    leaseUntil: Date,
    startAfter: string | undefined,
  ): Promise<WalkerClaim | null> {
    const rows = await this.context.query<{ log_cursor: string | null; token: string }>(
      this.sql.claimWalker,
      [subscriber, now.toISOString(), leaseUntil.toISOString(), startAfter ?? null],
    );
    const row = rows[0];
    return row ? { cursor: row.log_cursor ?? undefined, token: row.token } : null;
  }

  /** Moves the walker and marks partitions due (see `SubscriptionStore.advanceWalker`). */
  async advanceWalker(
    subscriber: string,
    token: string,
    advance: Parameters<SubscriptionStore['advanceWalker']>[2],
  ): Promise<boolean> {
    const tenants = [...new Set(advance.tenants)].sort();
    const rows = await this.context.query<{ n: string | number }>(this.sql.advanceWalker, [
      subscriber,
      token,
      advance.cursor ?? null,
      advance.leaseUntil.toISOString(),
      advance.from ?? null,
      advance.now.toISOString(),
      tenants,
    ]);
    return Number(rows[0]?.n ?? 0) > 0;
  }

  /** Ends the walker's lease (see `SubscriptionStore.releaseWalker`). */
  async releaseWalker(subscriber: string, token: string): Promise<boolean> {
    return this.changed(this.sql.releaseWalker, [subscriber, token]);
  }

  /** Claims due partitions (see `SubscriptionStore.claimPartitions`). */
  async claimPartitions(
    subscriber: string,
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<readonly PartitionClaim[]> {
    if (limit <= 0) return [];
    const rows = await this.context.query<PartitionRow & { due_at: Date | string }>(
      this.sql.claimPartitions,
      [subscriber, now.toISOString(), leaseUntil.toISOString(), limit],
    );
    rows.sort(
      (a, b) => +new Date(a.due_at) - +new Date(b.due_at) || (a.tenant < b.tenant ? -1 : 1),
    );
    return rows.map((row) => ({
      tenant: row.tenant,
      checkpoint: row.checkpoint_cursor ?? undefined,
      attempts: Number(row.attempts),
      token: row.token,
      wakes: Number(row.wakes),
    }));
  }

  /** Extends a partition's lease (see `SubscriptionStore.renewPartition`). */
  async renewPartition(
    subscriber: string,
    tenant: string,
    token: string,
    leaseUntil: Date,
  ): Promise<boolean> {
    return this.changed(this.sql.renewPartition, [
      subscriber,
      tenant,
      token,
      leaseUntil.toISOString(),
    ]);
  }

  /** Records a run of delivered events (see `SubscriptionStore.recordDelivered`). */
  async recordDelivered(
    subscriber: string,
    token: string,
    records: readonly AttemptRecord[],
    leaseUntil: Date,
  ): Promise<boolean> {
    const tenant = records[0]?.event.tenant;
    if (tenant === undefined) return false;
    const fromLog = records.filter((r) => !r.fromDeadLetter);
    return this.counted(this.sql.recordDelivered, [
      subscriber,
      tenant,
      token,
      records.map((r) => r.event.id),
      records.map((r) => r.event.type),
      records.map((r) => r.attempt),
      records.map((r) => r.at.toISOString()),
      fromLog.at(-1)?.event.cursor ?? null,
      leaseUntil.toISOString(),
      records.filter((r) => r.fromDeadLetter).map((r) => r.event.id),
    ]);
  }

  /** Records a failed attempt (see `SubscriptionStore.recordFailed`). */
  async recordFailed(
    subscriber: string,
    token: string,
    record: AttemptRecord,
    error: string,
    retryAt: Date,
  ): Promise<boolean> {
    return this.counted(this.sql.recordFailed, [
      ...this.attemptParams(subscriber, token, record),
      error,
      retryAt.toISOString(),
    ]);
  }

  /** Gives an event up (see `SubscriptionStore.recordDead`). */
  async recordDead(
    subscriber: string,
    token: string,
    record: AttemptRecord,
    error: string,
    leaseUntil: Date,
  ): Promise<boolean> {
    return this.counted(this.sql.recordDead, [
      ...this.attemptParams(subscriber, token, record),
      record.fromDeadLetter,
      record.event.cursor,
      error,
      leaseUntil.toISOString(),
      JSON.stringify(record.event),
    ]);
  }

  /** Ends a partition's lease (see `SubscriptionStore.releasePartition`). */
  async releasePartition(
    subscriber: string,
    tenant: string,
    token: string,
    idleIfWakes?: number,
  ): Promise<boolean> {
    return this.changed(this.sql.releasePartition, [
      subscriber,
      tenant,
      token,
      idleIfWakes ?? null,
    ]);
  }

  /** Moves checkpoints to a cursor (see `SubscriptionStore.replay`). */
  async replay(
    subscriber: string,
    tenant: string | undefined,
    after: string | undefined,
    now: Date,
  ): Promise<void> {
    const params = [subscriber, after ?? null, now.toISOString()];
    if (tenant !== undefined) await this.context.query(this.sql.replayTenant, [...params, tenant]);
    else await this.context.query(this.sql.replayAll, params);
  }

  /** Lists dead letters (see `SubscriptionStore.listDeadLetters`). */
  async listDeadLetters(query: DeadLetterQuery): Promise<readonly DeadLetter[]> {
    const rows = await this.context.query<LetterRow>(this.sql.listDeadLetters, [
      query.subscriber,
      query.tenant ?? null,
      query.state ?? null,
      query.afterEventId ?? null,
      Math.max(0, query.limit),
    ]);
    return rows.map((row) => ({
      subscriber: row.subscriber,
      tenant: row.tenant,
      event: row.event,
      attempts: Number(row.attempts),
      error: row.error,
      deadAt: iso(row.dead_at),
      state: row.state,
    }));
  }

  /** Queues dead letters again (see `SubscriptionStore.retryDeadLetters`). */
  async retryDeadLetters(
    subscriber: string,
    select: { readonly tenant?: string; readonly eventIds?: readonly string[] },
    now: Date,
  ): Promise<number> {
    const rows = await this.context.query<{ n: string | number }>(this.sql.retryDeadLetters, [
      subscriber,
      select.tenant ?? null,
      select.eventIds === undefined ? null : [...select.eventIds],
      now.toISOString(),
    ]);
    return Number(rows[0]?.n ?? 0);
  }

  /** Lists one tenant's delivery attempts, newest first (see `SubscriptionStore.listAttempts`). */
  async listAttempts(query: AttemptListQuery): Promise<AttemptPage> {
    const after = query.after === undefined ? null : attemptSeq(query.after);
    const limit = Math.max(1, query.limit);
    const rows = await this.context.query<AttemptRow>(this.sql.listAttempts, [
      query.tenant,
      query.subscriber ?? null,
      query.eventId ?? null,
      after,
      limit + 1,
    ]);
    const attempts = rows.slice(0, limit).map((row) => ({
      subscriber: row.subscriber,
      tenant: row.tenant,
      eventId: row.event_id,
      eventType: row.event_type,
      attempt: Number(row.attempt),
      status: row.status,
      ...(row.error === null ? {} : { error: row.error }),
      at: iso(row.at),
      cursor: String(row.seq),
    }));
    return { attempts, next: rows.length > limit ? attempts.at(-1)?.cursor : undefined };
  }

  /** Deletes old attempts, then old dead letters (see `SubscriptionStore.purge`). */
  async purge(before: Date, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const at = before.toISOString();
    const attempts = await this.context.query(this.sql.purgeAttempts, [at, limit]);
    if (attempts.length >= limit) return attempts.length;
    const letters = await this.context.query(this.sql.purgeDeadLetters, [
      at,
      limit - attempts.length,
    ]);
    return attempts.length + letters.length;
  }

  private attemptParams(subscriber: string, token: string, record: AttemptRecord): unknown[] {
    const { event } = record;
    return [
      subscriber,
      event.tenant,
      token,
      event.id,
      event.type,
      record.attempt,
      record.at.toISOString(),
    ];
  }

  private async changed(sql: string, params: readonly unknown[]): Promise<boolean> {
    return (await this.context.query(sql, params)).length > 0;
  }

  private async counted(sql: string, params: readonly unknown[]): Promise<boolean> {
    const rows = await this.context.query<{ n: string | number }>(sql, params);
    return Number(rows[0]?.n ?? 0) > 0;
  }
}
