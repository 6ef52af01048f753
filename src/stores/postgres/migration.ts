import type { QueryExecutor } from './query-executor.js';
import type { TableNames } from './table-names.js';

/**
 * A step of a migration that SQL alone cannot express (a value only scimkit's own code can
 * compute). It runs in the migration's transaction: throwing rolls the whole migration back.
 */
export type MigrationScript = (tx: QueryExecutor, t: TableNames) => Promise<void>;

/** One schema change, applied once and recorded in the migrations table. */
export interface Migration {
  /** Applied in increasing order; never reused or renumbered. */
  readonly version: number;
  /** What the migration does, for the migrations table and logs. */
  readonly name: string;
  /**
   * The steps, in order, in one transaction with the others: SQL statements, each run on its
   * own, and scripts.
   */
  readonly statements: (t: TableNames) => readonly (string | MigrationScript)[];
}
