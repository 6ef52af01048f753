import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { pgExecutor, pgliteExecutor, type QueryExecutor } from '../../src/stores/postgres/index.js';

/**
 * Runs `measure` on a fresh in-memory PGlite, then on the PostgreSQL server of
 * SCIMKIT_TEST_DATABASE_URL or DATABASE_URL when one is set (one connection), closing each.
 */
export async function onEveryPostgres(
  measure: (name: string, executor: QueryExecutor) => Promise<void>,
): Promise<void> {
  const db = await PGlite.create();
  try {
    await measure('PGlite', pgliteExecutor(db));
  } finally {
    await db.close();
  }
  const url = process.env['SCIMKIT_TEST_DATABASE_URL'] ?? process.env['DATABASE_URL'];
  if (!url) return;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await measure('PostgreSQL server', pgExecutor(pool));
  } finally {
    await pool.end();
  }
}
