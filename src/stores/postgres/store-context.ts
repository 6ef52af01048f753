import { migrate, type MigrateResult } from './migrate.js';
import type { QueryExecutor, QueryOptions, Row, TransactionOptions } from './query-executor.js';
import { toTimeoutError } from './statement-timeout.js';
import { tableNames, type TableLocation, type TableNames } from './table-names.js';

const rethrow = (error: unknown): never => {
  throw toTimeoutError(error);
};

/**
 * What the stores of one database share: the executor, the table names, the statement
 * timeout every statement of a request runs under, and the gate that runs migrations once
 * before the first statement when the host asked for it.
 */
export class StoreContext {
  readonly tables: TableNames;
  private migrated: boolean;
  private migration: Promise<MigrateResult> | undefined;
  private readonly prepared: QueryOptions;
  private readonly unprepared: QueryOptions;
  private readonly bounded: TransactionOptions;

  /**
   * `statementTimeoutMs` bounds each statement the stores send (`undefined`: the server's own
   * setting); migrations run without it.
   */
  constructor(
    readonly executor: QueryExecutor,
    private readonly location: TableLocation,
    migrateOnFirstUse: boolean,
    statementTimeoutMs?: number,
  ) {
    this.tables = tableNames(location);
    this.migrated = !migrateOnFirstUse;
    const bound = statementTimeoutMs === undefined ? {} : { statementTimeoutMs };
    this.prepared = { prepare: true, ...bound };
    this.unprepared = bound;
    this.bounded = bound;
  }

  /** Runs the migrations (once per context, unless the first attempt failed). */
  migrate(): Promise<MigrateResult> {
    this.migration ??= migrate(this.executor, this.location).then(
      (result) => {
        this.migrated = true;
        return result;
      },
      (error: unknown) => {
        this.migration = undefined;
        throw error;
      },
    );
    return this.migration;
  }

  /**
   * Runs one statement, after the migrations when they are still due. `prepare` (default on)
   * marks a statement whose text repeats, so the driver may prepare it once per connection.
   * A statement cancelled by the timeout rejects with a 503 (`toTimeoutError`).
   */
  query<R = Row>(sql: string, params: readonly unknown[], prepare = true): Promise<R[]> {
    const options = prepare ? this.prepared : this.unprepared;
    if (this.migrated) return this.executor.query<R>(sql, params, options).catch(rethrow);
    return this.migrate()
      .then(() => this.executor.query<R>(sql, params, options))
      .catch(rethrow);
  }

  /**
   * Runs `fn` in one transaction, after the migrations when they are still due; each statement
   * under the timeout. A cancelled statement rolls the whole transaction back and rejects with
   * a 503.
   */
  async transaction<T>(fn: (tx: QueryExecutor) => Promise<T>): Promise<T> {
    if (!this.migrated) await this.migrate();
    return this.executor.transaction(fn, this.bounded).catch(rethrow);
  }
}
