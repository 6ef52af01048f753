import type { PGliteInterface, Transaction } from '@electric-sql/pglite';
import type { QueryExecutor, Row } from './query-executor.js';

type Queryable = Pick<Transaction, 'query'>;

function executorOn(db: Queryable, transaction: QueryExecutor['transaction']): QueryExecutor {
  return {
    async query<R = Row>(sql: string, params: readonly unknown[] = []) {
      const result = await db.query<R>(sql, params as unknown[]);
      return result.rows;
    },
    transaction,
  };
}

/**
 * Wraps a PGlite database (PostgreSQL compiled to WebAssembly, in process) as a
 * {@link QueryExecutor}. PGlite runs one statement at a time, so concurrent callers queue.
 * Statement timeouts are ignored: PGlite accepts `statement_timeout` but its WebAssembly build
 * has no timer to cancel a running statement, so setting it would only cost a round trip.
 *
 * `@electric-sql/pglite` is not a dependency of scimkit: the host creates the database and
 * owns its lifetime.
 *
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * import { PostgresUserStore, pgliteExecutor } from 'scimkit/postgres';
 *
 * const db = new PGlite('./.data/scimkit');
 * const store = new PostgresUserStore({ executor: pgliteExecutor(db), migrate: true });
 * ```
 */
export function pgliteExecutor(db: Pick<PGliteInterface, 'query' | 'transaction'>): QueryExecutor {
  return executorOn(db, (fn) =>
    db.transaction((raw) => {
      const tx: QueryExecutor = executorOn(raw, (inner) => inner(tx));
      return fn(tx);
    }),
  );
}
