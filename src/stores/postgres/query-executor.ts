/** One row of a query result, keyed by column name. */
export type Row = Record<string, unknown>;

/** Hints for one statement; a driver may ignore them. */
export interface QueryOptions {
  /**
   * The statement's text is one the caller runs again and again with other parameters: a
   * driver may prepare it once per connection instead of parsing and planning it each time.
   */
  readonly prepare?: boolean;
  /**
   * The longest the statement may run, in milliseconds, as PostgreSQL's `statement_timeout`
   * (a non-negative integer): past it the server cancels the statement with SQLSTATE 57014.
   * A driver that cannot enforce it ignores it (PGlite has no timers).
   */
  readonly statementTimeoutMs?: number;
}

/** Hints for one transaction; a driver may ignore them. */
export interface TransactionOptions {
  /**
   * The longest each statement of the transaction may run, in milliseconds, as PostgreSQL's
   * `statement_timeout` set for the transaction alone (`SET LOCAL`).
   */
  readonly statementTimeoutMs?: number;
}

/**
 * Runs SQL for the PostgreSQL store: the whole surface the store needs from a driver, so that
 * one store runs on `pg`, PGlite or anything else that speaks PostgreSQL.
 *
 * Parameters are always sent separately from the SQL text (`$1`, `$2`, ...); the store never
 * splices a value into a statement.
 *
 * @example
 * ```ts
 * const executor: QueryExecutor = pgExecutor(new pg.Pool({ connectionString }));
 * const rows = await executor.query('SELECT 1 AS one', []);
 * ```
 */
export interface QueryExecutor {
  /** Runs one statement with positional parameters and returns its rows. */
  query<R = Row>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<R[]>;
  /**
   * Runs `fn` in one transaction on one connection: committed when it resolves, rolled back
   * when it throws. A transaction started inside `fn` joins the outer one (and its options).
   */
  transaction<T>(fn: (tx: QueryExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
}
