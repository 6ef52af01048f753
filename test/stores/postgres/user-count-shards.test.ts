// Migration 10 spreads each tenant's user count over counter rows, one per connection's shard,
// and migration 12 has creates count in their own statement: totals stay exact across both,
// through creates, refused creates and deletes, and a create of a tenant does not wait for
// another uncommitted create of the same tenant.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFilter } from '../../../src/filter/index.js';
import { applyMigrations } from '../../../src/stores/postgres/migrate.js';
import { migrations } from '../../../src/stores/postgres/migrations.js';
import { PostgresUserStore, pgExecutor } from '../../../src/stores/postgres/index.js';
import { backends, databaseUrl, makeUser, type Backend } from './harness.js';

const upTo = (version: number) => migrations.filter((m) => m.version <= version);

describe.each(backends)('user counts in shards (migration 10) on $name', ({ open }) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(() => backend?.close());

  it('keeps the counts written before it, and stays exact through creates and deletes', async () => {
    const schema = `${backend.schema}_m10`;
    await applyMigrations(backend.executor, { schema }, upTo(9));
    // Users as a version-9 store wrote them (its trigger counts them; today's statements
    // expect migration 12).
    for (const tenant of ['a', 'a', 'a', 'b']) {
      const user = makeUser();
      await backend.executor.query(
        `INSERT INTO "${schema}".users (tenant, id, user_name, user_name_key, version, created,
           last_modified, doc, folded)
         VALUES ($1, $2, $3, lower($3), 'W/"1"', now(), now(), $4::jsonb, $4::jsonb)`,
        [tenant, user.id, user.userName, JSON.stringify(user)],
      );
    }

    const result = await applyMigrations(backend.executor, { schema }, upTo(10));
    expect(result.applied).toEqual([10]);
    const store = new PostgresUserStore({ executor: backend.executor, schema });
    const total = async (tenant: string) =>
      (await store.list(tenant, { startIndex: 1, count: 1 })).totalResults;
    expect([await total('a'), await total('b'), await total('c')]).toEqual([3, 1, 0]);
    // Today's creates count themselves (migration 12): the counts carry through it too.
    await applyMigrations(backend.executor, { schema }, migrations);
    expect([await total('a'), await total('b'), await total('c')]).toEqual([3, 1, 0]);

    const added = [makeUser(), makeUser()];
    for (const user of added) await store.create('a', user);
    await store.create('c', makeUser());
    expect(await store.delete('a', added[0]!.id)).toBe(true);
    expect([await total('a'), await total('b'), await total('c')]).toEqual([4, 1, 1]);
    // The filtered total counts rows: both agree.
    const filtered = await store.list('a', {
      filter: parseFilter('userName pr'),
      startIndex: 1,
      count: 1,
    });
    expect(filtered.totalResults).toBe(4);
    // A create refused for its userName stores nothing, and counts nothing.
    const taken = makeUser();
    await store.create('b', taken);
    await expect(
      store.create('b', makeUser({ userName: taken.userName.toUpperCase() })),
    ).rejects.toMatchObject({ status: 409 });
    expect(await total('b')).toBe(2);
  });
});

describe.skipIf(!databaseUrl)('user counts in shards on a server', () => {
  let pool: pg.Pool;
  let backend: Backend;
  beforeAll(async () => {
    backend = await backends.find((b) => b.name === 'server')!.open();
    pool = new pg.Pool({ connectionString: databaseUrl, max: 8 });
  });
  afterAll(async () => {
    await pool?.end();
    await backend?.close();
  });

  it("does not make a tenant's create wait for another uncommitted create of the tenant", async () => {
    const store = backend.newStore();
    await store.migrate();
    // Two connections on different shards (their backends' process ids differ modulo 64).
    const first = await pool.connect();
    const held = [first];
    const pid = async (client: pg.PoolClient) =>
      (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const firstShard = (await pid(first)) % 64;
    let second: pg.PoolClient | undefined;
    for (let i = 0; i < 7 && !second; i++) {
      const client = await pool.connect();
      held.push(client);
      if ((await pid(client)) % 64 !== firstShard) second = client;
    }
    try {
      expect(second).toBeDefined();
      // A store whose every statement runs on `client`, inside whatever it has begun.
      const on = (client: pg.PoolClient) => {
        const lent = { query: client.query.bind(client), release: () => undefined };
        const executor = pgExecutor({ connect: async () => lent, query: lent.query } as never);
        return new PostgresUserStore({ executor, schema: backend.schema });
      };
      await first.query('BEGIN');
      await on(first).create('t', makeUser());
      // Uncommitted: the first create holds its counter row. The second must not wait for it.
      await second!.query("SET lock_timeout = '2s'");
      await on(second!).create('t', makeUser());
      await first.query('COMMIT');
      const page = await store.list('t', { startIndex: 1, count: 10 });
      expect(page.totalResults).toBe(2);
      expect(page.resources).toHaveLength(2);
    } finally {
      await first.query('ROLLBACK');
      for (const client of held) client.release();
    }
  });
});
