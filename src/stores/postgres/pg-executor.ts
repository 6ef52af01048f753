import type { Pool, PoolClient } from 'pg';
import type { QueryExecutor, QueryOptions, Row, TransactionOptions } from './query-executor.js';
import { timeoutSetting } from './statement-timeout.js';

/** The part of a `pg` client the executor uses. */
type Queryable = Pick<PoolClient, 'query'>;

/** Most distinct statements prepared in this process; others run unprepared. */
const MAX_PREPARED = 512;

/**
 * Statement names by SQL text, shared by every executor in the process: pg keeps prepared
 * statements per connection, and two executors may share a pool, so one text has one name.
 */
const statementNameCache = new Map<string, string>();

/**
 * Where a pooled connection keeps the `statement_timeout` an executor left on its session
 * (absent: the server's default). It lives on the connection, as the session does, so every
 * executor sharing the pool sees it.
 */
const SESSION_TIMEOUT = Symbol('scimkit.sessionStatementTimeout');

/** A pooled connection, with what its session's `statement_timeout` was left at. */
type Session = PoolClient & { [SESSION_TIMEOUT]?: number };

/** Options of {@link pgExecutor}. */
export interface PgExecutorOptions {
  /**
   * Prepares the store's repeated statements once per connection, and keeps a statement
   * timeout as a session setting of each connection. Default `true`. Turn it off behind a
   * pooler that does not keep a session per client connection (PgBouncer in transaction mode):
   * a statement with a timeout then runs in a transaction of its own with `SET LOCAL`.
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
 * Makes the connection's session `statement_timeout` the one wanted (`undefined`: the server's
 * default), with a round trip only when it differs from what was left there.
 */
async function settleSession(client: Session, wanted: number | undefined): Promise<void> {
  if (client[SESSION_TIMEOUT] === wanted) return;
  await client.query(`SET statement_timeout = ${timeoutSetting(wanted)}`);
  if (wanted === undefined) delete client[SESSION_TIMEOUT];
  else client[SESSION_TIMEOUT] = wanted;
}

/**
 * Wraps a `pg` pool as a {@link QueryExecutor}. Statements outside a transaction take any
 * pooled connection; a transaction holds one connection from `BEGIN` to `COMMIT`.
 *
 * Statements the store marks as repeated are prepared once per connection (named statements,
 * at most 512 per process), which saves PostgreSQL parsing and planning them on every call.
 *
 * A statement timeout (`statementTimeoutMs`) costs no round trip of its own in steady state:
 * a transaction sets it with `SET LOCAL` in the same round trip as `BEGIN`, and a statement
 * outside one leaves it on its connection's session, set again only when a statement wants
 * another value. A statement without a timeout restores the server's default first, so
 * statements of the host that share the pool through this executor never inherit one; the
 * host's own `pool.query` on a connection the store used does.
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
  const sessions = options.prepare ?? true;
  const transaction = async <T>(
    fn: (tx: QueryExecutor) => Promise<T>,
    txOptions?: TransactionOptions,
  ): Promise<T> => {
    const client = await pool.connect();
    let broken: unknown;
    try {
      const wanted = txOptions?.statementTimeoutMs;
      // One round trip: a simple query may hold several statements, and these carry no value.
      const local =
        (client as Session)[SESSION_TIMEOUT] === wanted
          ? ''
          : `; SET LOCAL statement_timeout = ${timeoutSetting(wanted)}`;
      await client.query(`BEGIN${local}`);
      // Nested transactions join this one, so the inner executor reuses the same client.
      const tx: QueryExecutor = executorOn(client, (inner) => inner(tx), sessions);
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
  const onPool = executorOn(pool as Queryable, transaction, sessions);
  return {
    async query<R = Row>(sql: string, params?: readonly unknown[], queryOptions?: QueryOptions) {
      const wanted = queryOptions?.statementTimeoutMs;
      if (!sessions) {
        if (wanted === undefined) return onPool.query<R>(sql, params, queryOptions);
        const options = { statementTimeoutMs: wanted };
        return transaction((tx) => tx.query<R>(sql, params, queryOptions), options);
      }
      const client = await pool.connect();
      try {
        await settleSession(client, wanted);
        return await executorOn(client, transaction, sessions).query<R>(sql, params, queryOptions);
      } finally {
        client.release();
      }
    },
    transaction,
  };
}
