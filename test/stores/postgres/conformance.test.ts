import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import type { ScimUser } from '../../../src/schema/user-resource.js';
import {
  PostgresUserStore,
  migrate,
  pgExecutor,
  pgliteExecutor,
  type QueryExecutor,
} from '../../../src/stores/postgres/index.js';
import { describeStoreConformance } from '../../../src/testing/vitest.js';
import { databaseUrl } from './harness.js';
import { createPglite } from '../../pglite/template.js';

/**
 * One migrated schema per backend for the whole file; each case starts from emptied user
 * tables.
 */
function conformanceOn(
  name: string,
  open: () => Promise<{ executor: QueryExecutor; close: () => Promise<void> }>,
) {
  const schema = `scimkit_test_${Math.random().toString(36).slice(2, 10)}`;
  let executor: QueryExecutor;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ executor, close } = await open());
    await migrate(executor, { schema });
  });
  afterAll(async () => {
    await executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await close();
  });
  describeStoreConformance(name, async () => {
    await executor.query(`TRUNCATE "${schema}".users, "${schema}".user_counts`);
    const store = new PostgresUserStore({ executor, schema });
    return {
      store,
      // The back door reads the stored document with SQL, not through `get`.
      readStored: async (tenant: string, id: string) => {
        const rows = await executor.query<{ doc: ScimUser }>(
          `SELECT doc FROM "${schema}".users WHERE tenant = $1 AND id = $2`,
          [tenant, id],
        );
        return rows[0]?.doc ?? null;
      },
    };
  });
}

describe('conformance on PGlite', () => {
  conformanceOn('PostgresUserStore (PGlite)', async () => {
    const db = await createPglite();
    return { executor: pgliteExecutor(db), close: () => db.close() };
  });
});

// Runs only where a PostgreSQL server is available: set SCIMKIT_TEST_DATABASE_URL, e.g.
// postgres://postgres@127.0.0.1:5432/test. Without it the PGlite run above covers the SQL.
describe.skipIf(!databaseUrl)('conformance on a PostgreSQL server', () => {
  conformanceOn('PostgresUserStore (server)', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    return { executor: pgExecutor(pool), close: () => pool.end() };
  });
});
