import type { Pool, PoolClient } from 'pg';
import type { QueryExecutor, QueryOptions, Row } from './query-executor.js';

/** The part of a `pg` client the executor uses. */
type Queryable = Pick<PoolClient, 'query'>;

/** Most distinct statements prepared in this process; others run unprepared. */
const MAX_PREPARED = 512;

/**
 * Statement names by SQL text, shared by every executor in the process: pg keeps prepared
 * statements per connection, and two executors may share a pool, so one text has one name.
 */
const statementNameCache = new Map<string, string>();

/** Options of {@link pgExecutor}. */
export interface PgExecutorOptions {
  /**
   * Prepares the store's repeated statements once per connection. Default `true`. Turn it off
   * behind a pooler that does not keep prepared statements (PgBouncer in transaction mode
   * before 1.21).
   */
  readonly prepare?: boolean;
}

function executorOn(
  client: Queryable,
  transaction: QueryExecutor['transaction'],
  allowPrepare: boolean,
): QueryExecutor {
  return {
    async query<R = Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      const prepare = allowPrepare && options?.prepare === true;
      let name = prepare ? statementNameCache.get(sql) : undefined;
      if (prepare && name === undefined && statementNameCache.size < MAX_PREPARED) {
        name = `scimkit_${statementNameCache.size + 1}`;
        statementNameCache.set(sql, name);
      }
      // A named statement is parsed once per connection; pg then sends only Bind/Execute.
      const result =
        name === undefined
          ? await client.query(sql, params as unknown[])
          : await client.query({ name, text: sql, values: params as unknown[] });
      return result.rows as R[];
    },
    transaction,
  };
}

/**
 * Wraps a `pg` pool as a {@link QueryExecutor}. Statements outside a transaction take any
 * pooled connection; a transaction holds one connection from `BEGIN` to `COMMIT`.
 *
 * Statements the store marks as repeated are prepared once per connection (named statements,
 * at most 512 per process), which saves PostgreSQL parsing and planning them on every call.
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
export function pgExecutor(
  pool: Pick<Pool, 'query' | 'connect'>,
  options: PgExecutorOptions = {},
): QueryExecutor {
  const prepare = options.prepare ?? true;
  const transaction = async <T>(fn: (tx: QueryExecutor) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    let broken: unknown;
    try {
      await client.query('BEGIN');
      // Nested transactions join this one, so the inner executor reuses the same client.
      const tx: QueryExecutor = executorOn(client, (inner) => inner(tx), prepare);
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
  return executorOn(pool as Queryable, transaction, prepare);
}
