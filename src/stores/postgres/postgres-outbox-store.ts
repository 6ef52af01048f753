import type { OutboxMessage, OutboxStore, PendingOutboxMessage } from '../../contracts/outbox.js';
import type { StoreContext } from './store-context.js';

interface ClaimedRow {
  payload: OutboxMessage;
  attempts: number;
  claim_token: string;
  due_at: Date;
  id: string;
}

/**
 * Keeps the welcome-email outbox in PostgreSQL, in the table the user store writes messages
 * to with their user. Claims lock rows with `FOR UPDATE SKIP LOCKED`, take a lease and set a
 * random claim token; every later change is an `UPDATE … WHERE id = $1 AND claim_token = $2`,
 * so only the current holder's takes effect.
 *
 * Created by {@link PostgresUserStore}; reach it as `store.outbox`.
 */
export class PostgresOutboxStore implements OutboxStore {
  private readonly claimSql: string;
  private readonly renewSql: string;
  private readonly completeSql: string;
  private readonly failSql: string;
  private readonly releaseSql: string;

  /** @internal */
  constructor(private readonly context: StoreContext) {
    const { outbox } = context.tables;
    // SKIP LOCKED lets concurrent claimers take disjoint rows instead of waiting; the lease
    // keeps a claimed row hidden after the claiming transaction commits.
    this.claimSql = `UPDATE ${outbox} SET lease_until = $2::timestamptz,
        claim_token = gen_random_uuid()::text
      WHERE id IN (
        SELECT id FROM ${outbox}
        WHERE sent_at IS NULL AND failed_at IS NULL AND due_at <= $1::timestamptz
          AND (lease_until IS NULL OR lease_until <= $1::timestamptz)
        ORDER BY due_at, id
        LIMIT $3
        FOR UPDATE SKIP LOCKED
      )
      RETURNING payload, attempts, claim_token, due_at, id`;
    // Settling clears the token, so a token matches only an unsettled row of its holder.
    const held = 'WHERE id = $1 AND claim_token = $2 RETURNING 1';
    this.renewSql = `UPDATE ${outbox} SET lease_until = $3::timestamptz ${held}`;
    this.completeSql = `UPDATE ${outbox} SET sent_at = $3::timestamptz, lease_until = NULL,
        claim_token = NULL ${held}`;
    this.failSql = `UPDATE ${outbox} SET attempts = attempts + 1, last_error = $3,
        lease_until = NULL, claim_token = NULL,
        due_at = COALESCE($4::timestamptz, due_at),
        failed_at = CASE WHEN $4::timestamptz IS NULL THEN now() END
      ${held}`;
    this.releaseSql = `UPDATE ${outbox} SET lease_until = NULL, claim_token = NULL ${held}`;
  }

  /** Claims due messages under a lease (see `OutboxStore.claim`). */
  async claim(
    now: Date,
    leaseUntil: Date,
    limit: number,
  ): Promise<readonly PendingOutboxMessage[]> {
    if (limit <= 0) return [];
    const rows = await this.context.query<ClaimedRow>(this.claimSql, [
      now.toISOString(),
      leaseUntil.toISOString(),
      limit,
    ]);
    rows.sort((a, b) => +new Date(a.due_at) - +new Date(b.due_at) || (a.id < b.id ? -1 : 1));
    return rows.map((row) => ({
      ...row.payload,
      attempts: Number(row.attempts),
      claimToken: row.claim_token,
    }));
  }

  /** Extends a current claim's lease (see `OutboxStore.renew`). */
  async renew(id: string, claimToken: string, leaseUntil: Date): Promise<boolean> {
    return this.changed(this.renewSql, [id, claimToken, leaseUntil.toISOString()]);
  }

  /** Records a delivery under a current claim (see `OutboxStore.complete`). */
  async complete(id: string, claimToken: string, at: Date): Promise<boolean> {
    return this.changed(this.completeSql, [id, claimToken, at.toISOString()]);
  }

  /** Records a failed attempt under a current claim (see `OutboxStore.fail`). */
  async fail(
    id: string,
    claimToken: string,
    error: string,
    retryAt: Date | undefined,
  ): Promise<boolean> {
    return this.changed(this.failSql, [id, claimToken, error, retryAt?.toISOString() ?? null]);
  }

  /** Hands a claimed message back unsent (see `OutboxStore.release`). */
  async release(id: string, claimToken: string): Promise<boolean> {
    return this.changed(this.releaseSql, [id, claimToken]);
  }

  private async changed(sql: string, params: readonly unknown[]): Promise<boolean> {
    return (await this.context.query(sql, params)).length > 0;
  }
}
