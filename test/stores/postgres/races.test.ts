import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isScimError } from '../../../src/errors/index.js';
import { PostgresUserStore, migrate, migrations } from '../../../src/stores/postgres/index.js';
import { databaseUrl, makeUser, openServer, type Backend } from './harness.js';

const T = 'races';

/** Settles every promise and sorts the outcomes into successes and SCIM errors. */
async function outcomes(promises: Promise<unknown>[]) {
  const settled = await Promise.allSettled(promises);
  const ok = settled.filter((s) => s.status === 'fulfilled');
  const errors = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  return { ok, errors };
}

// Races need real concurrent connections, which PGlite (one connection, in process) does not
// have: these run only when SCIMKIT_TEST_DATABASE_URL points at a PostgreSQL server.
describe.skipIf(!databaseUrl)('PostgresUserStore races on a PostgreSQL server', () => {
  let backend: Backend;
  let a: PostgresUserStore;
  let b: PostgresUserStore;

  beforeAll(async () => {
    backend = await openServer(databaseUrl ?? '');
    // Two stores on two pools, as two processes behind a load balancer would have.
    a = new PostgresUserStore({
      executor: backend.executor,
      schema: backend.schema,
      migrate: true,
    });
    b = new PostgresUserStore({ executor: backend.other, schema: backend.schema, migrate: true });
    // Both migrate at once: the advisory lock lets one apply, the other find nothing to do.
    const [ra, rb] = await Promise.all([a.migrate(), b.migrate()]);
    expect([...ra.applied, ...rb.applied]).toEqual(migrations.map((m) => m.version));
  });
  afterAll(() => backend?.close());

  it('lets exactly one of concurrent creates of one userName in different case succeed', async () => {
    for (let round = 0; round < 10; round++) {
      const name = `race${round}@example.org`;
      const spellings = [
        name,
        name.toUpperCase(),
        `Race${round}@Example.org`,
        `rACE${round}@example.ORG`,
      ];
      const { ok, errors } = await outcomes(
        spellings.map((userName, i) => (i % 2 ? b : a).create(T, makeUser({ userName }))),
      );
      expect(ok).toHaveLength(1);
      expect(errors).toHaveLength(3);
      for (const e of errors)
        expect(isScimError(e) && e.status === 409 && e.scimType === 'uniqueness').toBe(true);
    }
    expect((await a.list(T, { startIndex: 1, count: 100 })).totalResults).toBe(10);
  });

  it('lets exactly one of concurrent replaces at one version succeed; the others see 412', async () => {
    const user = makeUser();
    await a.create(T, user);
    const writers = Array.from({ length: 6 }, (_, i) => {
      const next = {
        ...user,
        displayName: `writer ${i}`,
        meta: { ...user.meta, version: `W/"2-${i}"` },
      };
      return (i % 2 ? b : a).replace(T, next, { expectedVersion: user.meta.version });
    });
    const { ok, errors } = await outcomes(writers);
    expect(ok).toHaveLength(1);
    for (const e of errors) expect(isScimError(e) && e.status === 412).toBe(true);
    const stored = await b.get(T, user.id);
    expect(stored?.displayName).toBe(`writer ${stored?.meta.version.slice(5, 6)}`);
  });

  it('migrates a fresh schema from many connections at once without error', async () => {
    const schema = `${backend.schema}_m`;
    try {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          migrate(i % 2 ? backend.other : backend.executor, { schema }),
        ),
      );
      const versions = migrations.map((m) => m.version);
      expect(results.flatMap((r) => r.applied)).toEqual(versions);
      expect(results.every((r) => r.version === Math.max(...versions))).toBe(true);
    } finally {
      await backend.executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
});
