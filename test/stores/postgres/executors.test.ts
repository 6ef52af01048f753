import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PostgresUserStore,
  pgExecutor,
  pgliteExecutor,
  type QueryExecutor,
} from '../../../src/stores/postgres/index.js';
import { databaseUrl, inNoGroup, makeUser } from './harness.js';
import { createPglite } from '../../pglite/template.js';

/** Checks commit, rollback and nested transactions on one executor. */
async function transactions(executor: QueryExecutor, table: string) {
  await executor.query(`CREATE TABLE ${table} (v int)`);
  await executor.transaction(async (tx) => {
    await tx.query(`INSERT INTO ${table} VALUES ($1)`, [1]);
    await tx.transaction((inner) => inner.query(`INSERT INTO ${table} VALUES ($1)`, [2]));
  });
  await expect(
    executor.transaction(async (tx) => {
      await tx.query(`INSERT INTO ${table} VALUES ($1)`, [3]);
      throw new Error('abort');
    }),
  ).rejects.toThrow('abort');
  const rows = await executor.query<{ v: number }>(`SELECT v FROM ${table} ORDER BY v`);
  expect(rows.map((r) => r.v)).toEqual([1, 2]);
  await executor.query(`DROP TABLE ${table}`);
}

describe('pgliteExecutor', () => {
  // Started in the hook (hook timeout 60 s): PGlite's start alone can take 20 s on a busy machine.
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
  });
  afterAll(() => db.close());
  it('commits, joins nested transactions and rolls back on a throw', async () => {
    await transactions(pgliteExecutor(db), 'tx_check');
  });
});

// Needs a PostgreSQL server (SCIMKIT_TEST_DATABASE_URL); PGlite has no prepared-statement view.
describe.skipIf(!databaseUrl)('pgExecutor on a PostgreSQL server', () => {
  const pools: pg.Pool[] = [];
  const open = () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    pools.push(pool);
    return pool;
  };
  afterAll(() => Promise.all(pools.map((p) => p.end())));

  it('commits, joins nested transactions and rolls back on a throw', async () => {
    await transactions(pgExecutor(open()), `tx_check_${process.pid}`);
  });

  it.each([
    [true, 'prepares'],
    [false, 'does not prepare'],
  ])('with prepare %s, %s the store statements on the connection', async (prepare) => {
    const pool = open();
    const schema = `scimkit_test_exec_${process.pid}_${String(prepare)}`;
    const store = new PostgresUserStore({
      executor: pgExecutor(pool, { prepare }),
      schema,
      migrate: true,
    });
    try {
      const user = makeUser();
      await store.create('t', user);
      expect(await store.get('t', user.id)).toEqual(inNoGroup(user));
      const rows = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'scimkit\\_%'`,
      );
      expect(rows.rows[0]?.n ?? 0).toBe(prepare ? 2 : 0);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});
