import type { QueryExecutor } from './query-executor.js';
import type { TableNames } from './table-names.js';

/** Rows read and written per round trip: bounded memory whatever the table's size. */
const BATCH = 500;

/** What {@link backfillColumn} fills: a column computed in JS from another of the same row. */
export interface BackfillSpec {
  /** The table. */
  readonly table: (t: TableNames) => string;
  /** The primary key's columns (text), the order batches walk the table in. */
  readonly keys: readonly string[];
  /** The column read. */
  readonly from: string;
  /** The column written, and its SQL type. */
  readonly to: string;
  readonly type: 'text' | 'jsonb';
  /** The new value (text, or JSON text for jsonb) from the read one; `null` for SQL NULL. */
  readonly compute: (value: unknown) => string | null;
}

/**
 * Builds a migration step that fills a new column of every existing row with a value only
 * scimkit's code computes (a folding), in batches by primary key so that memory stays bounded
 * whatever the table's size. It runs in the migration's transaction.
 */
export function backfillColumn(
  spec: BackfillSpec,
): (tx: QueryExecutor, t: TableNames) => Promise<void> {
  const { keys, from, to, type } = spec;
  const list = keys.join(', ');
  const after = keys.map((_, i) => `$${i + 2}`).join(', ');
  const arrays = keys.map((_, i) => `$${i + 1}::text[]`).join(', ');
  const matches = keys.map((key) => `r.${key} = k.${key}`).join(' AND ');
  return async (tx, t) => {
    const table = spec.table(t);
    let last: Record<string, unknown> | undefined;
    for (;;) {
      const rows = await tx.query(
        `SELECT ${list}, ${from} AS source FROM ${table}
         ${last ? `WHERE (${list}) > (${after})` : ''}
         ORDER BY ${list} LIMIT $1`,
        last ? [BATCH, ...keys.map((key) => last?.[key])] : [BATCH],
      );
      if (rows.length === 0) return;
      await tx.query(
        `UPDATE ${table} AS r SET ${to} = k.computed::${type}
         FROM unnest(${arrays}, $${keys.length + 1}::text[]) AS k(${list}, computed)
         WHERE ${matches}`,
        [
          ...keys.map((key) => rows.map((row) => row[key])),
          rows.map((row) => spec.compute(row['source'])),
        ],
      );
      last = rows[rows.length - 1];
    }
  };
}
