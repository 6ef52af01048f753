import type { Pool, PoolClient } from 'pg';
import type { QueryExecutor, Row } from './query-executor.js';

/** The part of a `pg` client the executor uses. */
type Queryable = Pick<PoolClient, 'query'>;

function executorOn(client: Queryable, transaction: QueryExecutor['transaction']): QueryExecutor {
  return {
    async query<R = Row>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, params as unknown[]);
      return result.rows as R[];
    },
    transaction,
  };
}

/**
 * Wraps a `pg` pool as a {@link QueryExecutor}. Statements outside a transaction take any
 * pooled connection; a transaction holds one connection from `BEGIN` to `COMMIT`.
 *
 * `pg` is not a dependency of scimkit: the host creates the pool and owns its lifetime.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { PostgresUserStore, pgExecutor } from 'scimkit/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = new PostgresUserStore({ executor: pgExecutor(pool), migrate: true });
 * ```
 */
export function pgExecutor(pool: Pick<Pool, 'query' | 'connect'>): QueryExecutor {
  const transaction = async <T>(fn: (tx: QueryExecutor) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    let broken: unknown;
    try {
      await client.query('BEGIN');
      // Nested transactions join this one, so the inner executor reuses the same client.
      const tx: QueryExecutor = executorOn(client, (inner) => inner(tx));
      const result = await fn(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // A connection that cannot roll back must not go back to the pool.
        broken = rollbackError;
      }
      throw error;
    } finally {
      client.release(broken instanceof Error ? broken : undefined);
    }
  };
  return executorOn(pool, transaction);
}
