import { migrate, type MigrateResult } from './migrate.js';
import type { QueryExecutor, QueryOptions, Row } from './query-executor.js';

const PREPARE: QueryOptions = { prepare: true };
import { tableNames, type TableLocation, type TableNames } from './table-names.js';

/**
 * What the user store and its outbox share: the executor, the table names, and the gate that
 * runs migrations once before the first statement when the host asked for it.
 */
export class StoreContext {
  readonly tables: TableNames;
  private migrated: boolean;
  private migration: Promise<MigrateResult> | undefined;

  constructor(
    readonly executor: QueryExecutor,
    private readonly location: TableLocation,
    migrateOnFirstUse: boolean,
  ) {
    this.tables = tableNames(location);
    this.migrated = !migrateOnFirstUse;
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
   */
  query<R = Row>(sql: string, params: readonly unknown[], prepare = true): Promise<R[]> {
    const options = prepare ? PREPARE : undefined;
    if (this.migrated) return this.executor.query<R>(sql, params, options);
    return this.migrate().then(() => this.executor.query<R>(sql, params, options));
  }

  /** Runs `fn` in one transaction, after the migrations when they are still due. */
  async transaction<T>(fn: (tx: QueryExecutor) => Promise<T>): Promise<T> {
    if (!this.migrated) await this.migrate();
    return this.executor.transaction(fn);
  }
}
