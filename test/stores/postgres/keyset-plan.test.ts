// A deep cursor page costs what the first one does. The keyset condition is an
// index range (the primary key for the id order, the userName key index when sorted by
// userName), so PostgreSQL starts the scan at the cursor's place instead of reading and
// skipping every earlier row, as an OFFSET would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListQuery } from '../../../src/index.js';
import { PostgresUserStore, type QueryExecutor } from '../../../src/stores/postgres/index.js';
import { backends, type Backend } from './harness.js';

const TENANT = 'plan-tenant';
const USERS = 5000;

describe.each(backends)('the plan of a deep keyset page on $name', ({ open }) => {
  let backend: Backend;
  let store: PostgresUserStore;
  /** The statements the store ran, with their parameters. */
  const ran: { sql: string; params: readonly unknown[] }[] = [];

  beforeAll(async () => {
    backend = await open();
    const spy: QueryExecutor = {
      query: (sql, params, options) => {
        ran.push({ sql, params: params ?? [] });
        return backend.executor.query(sql, params, options);
      },
      transaction: (fn) => backend.executor.transaction(fn),
    };
    store = new PostgresUserStore({ executor: spy, schema: backend.schema, migrate: true });
    await store.migrate();
    const users = `"${backend.schema}".users`;
    await backend.executor.query(
      `INSERT INTO ${users}
         (tenant, id, user_name, user_name_key, version, created, last_modified, doc, folded)
       SELECT $1, 'u' || lpad(n::text, 8, '0'), 'user' || n || '@x.org', 'user' || n || '@x.org',
         'W/"1"', now(), now(), jsonb_build_object('id', 'u' || lpad(n::text, 8, '0')),
         jsonb_build_object('id', 'u' || lpad(n::text, 8, '0'))
       FROM generate_series(1, ${USERS}) AS n`,
      [TENANT],
    );
    await backend.executor.query(`ANALYZE ${users}`);
    const groups = `"${backend.schema}".groups`;
    await backend.executor.query(
      `INSERT INTO ${groups}
         (tenant, id, display_name, display_name_key, version, created, last_modified, doc, folded)
       SELECT $1, 'g' || lpad(n::text, 8, '0'), 'Group ' || n, 'group ' || lpad(n::text, 8, '0'),
         'W/"1"', now(), now(), jsonb_build_object('id', 'g' || lpad(n::text, 8, '0')),
         jsonb_build_object('id', 'g' || lpad(n::text, 8, '0'))
       FROM generate_series(1, ${USERS}) AS n`,
      [TENANT],
    );
    await backend.executor.query(`ANALYZE ${groups}`);
  }, 120_000);
  afterAll(() => backend.close());

  /** Runs `query` as a keyset page and returns the plan of the statement the store sent. */
  async function planOf(query: Omit<ListQuery, 'startIndex'>, of = 'users'): Promise<string> {
    ran.length = 0;
    const list = of === 'users' ? store.list.bind(store) : store.groups.list.bind(store.groups);
    const page = await list(TENANT, { ...query, startIndex: 1 });
    expect(page.resources).toHaveLength(query.count);
    const statement = ran.at(-1);
    if (!statement) throw new Error('no statement ran');
    const rows = await backend.executor.query<Record<string, string>>(
      `EXPLAIN ${statement.sql}`,
      statement.params,
    );
    return rows.map((row) => Object.values(row)[0]).join('\n');
  }

  it('by id, starts at the place through the primary key', async () => {
    const plan = await planOf({ count: 5, seek: { from: { id: 'u00004000' } } });
    expect(plan).toMatch(/Index (Only )?Scan .*users_pkey/);
    expect(plan).toMatch(/Index Cond: .*id > /);
    expect(plan).not.toMatch(/Seq Scan on users/);
  });

  it('by userName, starts at the place through the userName key index', async () => {
    const plan = await planOf({
      count: 5,
      sortBy: { attribute: 'userName' },
      seek: { from: { id: 'u00004000', key: 'user4000@x.org' } },
    });
    expect(plan).toMatch(/Index Cond: .*user_name_key >= /);
    expect(plan).not.toMatch(/Seq Scan on users/);
  });

  it('of groups, by id and by displayName, starts at the place through the primary key or the displayName key index', async () => {
    const byId = await planOf({ count: 5, seek: { from: { id: 'g00004000' } } }, 'groups');
    // The page's own scan (the unfiltered total is a count of the tenant's groups).
    expect(byId).toMatch(/Index (Only )?Scan .*groups_pkey.*\n\s*Index Cond: .*id > /);
    const byName = await planOf(
      {
        count: 5,
        sortBy: { attribute: 'displayName' },
        seek: { from: { id: 'g00004000', key: 'group 00004000' } },
      },
      'groups',
    );
    expect(byName).toMatch(/Index Cond: .*display_name_key >= /);
  });
});
