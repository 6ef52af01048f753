import { describe } from 'vitest';
import { databaseUrl, freshSchema } from './harness.js';
import { restartScenario } from './restart-scenario.js';

// Needs a PostgreSQL server, which not every machine has: set SCIMKIT_TEST_DATABASE_URL
// (.ci/run does) to run these; without it only the PGlite scenario runs.
describe.skipIf(!databaseUrl)('example server on PostgreSQL: restarts and a killed process', () => {
  const url = databaseUrl ?? '';
  const { schema, drop } = freshSchema(url);
  restartScenario({
    // Instances on a server share no folder, so the activation secret comes from the
    // environment, as docs/example-server.md asks.
    env: () => ({
      DATABASE_URL: url,
      SCIMKIT_DB_SCHEMA: schema,
      SCIMKIT_ACTIVATION_SECRET: 'e2e-activation-secret',
    }),
    cleanup: drop,
  });
});
