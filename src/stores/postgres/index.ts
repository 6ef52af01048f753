/**
 * The PostgreSQL stores: one SQL implementation of the `UserStore` contract (and of the
 * `ResourceStore` of a host's own resource types) that runs on a PostgreSQL server through
 * `pg` and in process on PGlite. Neither driver is a dependency:
 * the host passes its pool or database to an executor.
 *
 * @module scimkit/postgres
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * import { PostgresUserStore, pgliteExecutor } from 'scimkit/postgres';
 *
 * const store = new PostgresUserStore({ executor: pgliteExecutor(new PGlite()), migrate: true });
 * ```
 */
export { PostgresUserStore } from './postgres-user-store.js';
export type { PostgresUserStoreOptions } from './postgres-user-store.js';
export { PostgresSubscriptionStore } from './postgres-subscription-store.js';
export { PostgresKeyStore } from './postgres-key-store.js';
export type { PostgresKeyStoreOptions } from './postgres-key-store.js';
export { PostgresResourceStore } from './postgres-resource-store.js';
export type { PostgresResourceStoreOptions } from './postgres-resource-store.js';
export type { QueryExecutor, QueryOptions, Row, TransactionOptions } from './query-executor.js';
export { pgExecutor } from './pg-executor.js';
export type { PgExecutorOptions } from './pg-executor.js';
export { pgliteExecutor } from './pglite-executor.js';
export { migrate } from './migrate.js';
export type { MigrateResult } from './migrate.js';
export { migrations } from './migrations.js';
export type { Migration, MigrationScript } from './migrations.js';
export { compileSqlFilter } from './compile-sql-filter.js';
export type { CompiledSqlFilter } from './compile-sql-filter.js';
export type { GroupsFilterContext } from './groups-filter-sql.js';
export { UnsupportedFilterError } from './unsupported-filter.js';
export type { UnsupportedReason } from './unsupported-filter.js';
export type { TableLocation, TableNames } from './table-names.js';
