// The PostgreSQL store of host resource types against the resource store conformance cases,
// on PGlite always and on a PostgreSQL server when SCIMKIT_TEST_DATABASE_URL is set.
import { afterAll, beforeAll, describe } from 'vitest';
import { PostgresResourceStore, migrate } from '../../../src/stores/postgres/index.js';
import { describeStoreConformance } from '../../../src/testing/vitest.js';
import { backends, type Backend } from './harness.js';

for (const { name, open } of backends) {
  describe(`PostgresResourceStore on ${name}`, () => {
    let backend: Backend;
    beforeAll(async () => {
      backend = await open();
      await migrate(backend.executor, { schema: backend.schema });
    });
    afterAll(() => backend.close());
    // Each case writes tenants of its own, so the cases share one migrated schema.
    describeStoreConformance('conformance', {
      resourceTypes: {
        Thing: () =>
          new PostgresResourceStore({
            executor: backend.executor,
            schema: backend.schema,
            resourceType: 'Thing',
          }),
      },
    });
  });
}
