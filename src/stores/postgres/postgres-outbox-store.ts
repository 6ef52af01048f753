import type { OutboxMessage, OutboxStore, PendingOutboxMessage } from '../../contracts/outbox.js';
import type { StoreContext } from './store-context.js';

interface ClaimedRow {
  payload: OutboxMessage;
  attempts: number;
}

/**
 * Keeps the welcome-email outbox in PostgreSQL, in the table the user store writes messages
 * to with their user. Claims lock rows with `FOR UPDATE SKIP LOCKED` and take a lease, so two
 * processes never deliver the same message at the same time.
 *
 * Created by {@link PostgresUserStore}; reach it as `store.outbox`.
 */
export class PostgresOutboxStore implements OutboxStore {
  private readonly claimSql: string;
  private readonly completeSql: string;
  private readonly failSql: string;

  /** @internal */
  constructor(private readonly context: StoreContext) {
    const { outbox } = context.tables;
    // SKIP LOCKED lets concurrent claimers take disjoint rows instead of waiting; the lease
    // keeps a claimed row hidden after the claiming transaction commits.
    this.claimSql = `UPDATE ${outbox} SET lease_until = $2::timestamptz
      WHERE id IN (
        SELECT id FROM ${outbox}
        WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= $1::timestamptz
          AND (lease_until IS NULL OR lease_until <= $1::timestamptz)
        ORDER BY due_at, id
        LIMIT $3
        FOR UPDATE SKIP LOCKED
      )
      RETURNING payload, attempts, due_at, id`;
    this.completeSql = `UPDATE ${outbox} SET sent_at = $2::timestamptz, lease_until = NULL WHERE id = $1`;
    this.failSql = `UPDATE ${outbox} SET attempts = attempts + 1, last_error = $2, lease_until = NULL,
        due_at = COALESCE($3::timestamptz, due_at),
        failed_at = CASE WHEN $3::timestamptz IS NULL THEN now() END
      WHERE id = $1`;
  }

  async claim(
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<readonly PendingOutboxMessage[]> {
    if (limit <= 0) return [];
    const rows = await this.context.query<ClaimedRow & { due_at: Date; id: string }>(
      this.claimSql,
      [now.toISOString(), leaseUntil.toISOString(), limit],
    );
    rows.sort((a, b) => +new Date(a.due_at) - +new Date(b.due_at) || (a.id < b.id ? -1 : 1));
    return rows.map((row) => ({ ...row.payload, attempts: Number(row.attempts) }));
  }

  async complete(id: string, at: Date): Promise<void> {
    await this.context.query(this.completeSql, [id, at.toISOString()]);
  }

  async fail(id: string, error: string, retryAt: Date | undefined): Promise<void> {
    await this.context.query(this.failSql, [id, error, retryAt?.toISOString() ?? null]);
  }
}
