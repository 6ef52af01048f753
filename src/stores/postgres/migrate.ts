import { migrations, type Migration } from './migrations.js';
import type { QueryExecutor } from './query-executor.js';
import { tableNames, type TableLocation } from './table-names.js';

/** What {@link migrate} did. */
export interface MigrateResult {
  /** Versions applied by this call, in order; empty when the schema was up to date. */
  readonly applied: readonly number[];
  /** The schema version after the call. */
  readonly version: number;
}

/**
 * Brings the store's tables up to date: creates the schema and applies every migration not
 * yet recorded, in one transaction. Idempotent, and safe when several processes start at
 * once: a transaction-scoped advisory lock per schema lets one of them migrate while the
 * others wait and then find nothing to do.
 *
 * @example
 * ```ts
 * await migrate(pgExecutor(pool)); // at deploy time, or let the store do it: { migrate: true }
 * ```
 */
export function migrate(
  executor: QueryExecutor,
  location: TableLocation = {},
): Promise<MigrateResult> {
  return applyMigrations(executor, location, migrations);
}

/**
 * Applies the given migrations that are not recorded yet, as {@link migrate} does with all of
 * them; a test builds an older schema version with a prefix of the list.
 *
 * @internal
 */
export async function applyMigrations(
  executor: QueryExecutor,
  location: TableLocation,
  list: readonly Migration[],
): Promise<MigrateResult> {
  const t = tableNames(location);
  return executor.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `scimkit.migrate:${t.rawSchema}:${t.prefix}`,
    ]);
    await tx.query(`CREATE SCHEMA IF NOT EXISTS ${t.schema}`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${t.migrations} (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const rows = await tx.query<{ version: number }>(`SELECT version FROM ${t.migrations}`);
    const done = new Set(rows.map((r) => Number(r.version)));
    const applied: number[] = [];
    for (const migration of list) {
      if (done.has(migration.version)) continue;
      for (const step of migration.statements(t)) {
        if (typeof step === 'string') await tx.query(step);
        else await step(tx, t);
      }
      await tx.query(`INSERT INTO ${t.migrations} (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
    }
    const version = Math.max(0, ...done, ...applied);
    return { applied, version };
  });
}
