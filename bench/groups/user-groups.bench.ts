/**
 * The cost of the User's computed `groups` (issue 13 item 3): GET /Users/{id} and a page of 100
 * users, each with its groups shown and with `excludedAttributes=groups` (the store is not
 * asked), side by side in one run, through `scim.handle` on the memory store, PGlite, and a
 * PostgreSQL server when SCIMKIT_TEST_DATABASE_URL or DATABASE_URL is set. Every user is in two
 * groups directly and one through a nested group. Also two filters by group (a class, and the
 * school that holds every class). Medians, the requests timed interleaved so load hits them
 * alike; for PostgreSQL also the statements each request runs.
 *
 *   node --import tsx bench/groups/user-groups.bench.ts [--users 2000] [--rounds 300] [--budget-ms 6000]
 */
import { createScim, staticApiKeys, type UserStore } from '../../src/index.js';
import type { ScimGroup } from '../../src/schema/group-schema.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresUserStore, type QueryExecutor } from '../../src/stores/postgres/index.js';
import { createUserFactory } from '../../src/testing/index.js';
import { compareInterleaved, median } from '../postgres/measure.js';
import { onEveryPostgres } from './every-postgres.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const USERS = arg('--users', 2_000);
const ROUNDS = arg('--rounds', 300);
const BUDGET_MS = arg('--budget-ms', 6_000);
const TENANT = 'bench';
/** Users per class group; every class is in one school group. */
const CLASS_SIZE = 25;

const group = (id: string, displayName: string): ScimGroup => ({
  schemas: [GROUP_SCHEMA],
  id,
  displayName,
  meta: {
    resourceType: 'Group',
    created: '2025-01-01T00:00:00.000Z',
    lastModified: '2025-01-01T00:00:00.000Z',
    version: 'W/"1"',
  },
});

/** Loads the users, a class group per 25 users in one school each, and an "all staff" group. */
async function load(store: UserStore): Promise<string[]> {
  const groups = store.groups;
  if (!groups) throw new Error('the store has no groups');
  const users = createUserFactory();
  const ids: string[] = [];
  for (let i = 0; i < USERS; i += 100) {
    const batch = Array.from({ length: Math.min(100, USERS - i) }, () => users.make());
    await Promise.all(batch.map((user) => store.create(TENANT, user)));
    ids.push(...batch.map((user) => user.id));
  }
  ids.sort();
  await groups.create(TENANT, group('school', 'Lincoln High'), []);
  for (let i = 0; i < ids.length; i += CLASS_SIZE) {
    const id = `class-${String(i / CLASS_SIZE).padStart(5, '0')}`;
    const members = ids.slice(i, i + CLASS_SIZE).map((value) => ({ value }));
    await groups.create(TENANT, group(id, `Class ${i / CLASS_SIZE}`), members);
    await groups.addMembers(TENANT, 'school', [{ value: id }]);
  }
  await groups.create(
    TENANT,
    group('staff', 'All staff'),
    ids.map((value) => ({ value })),
  );
  return ids;
}

/** Counts the statements an executor runs. */
function counting(inner: QueryExecutor): QueryExecutor & { count: number } {
  const wrapped = {
    count: 0,
    query: ((sql, params, options) => {
      wrapped.count += 1;
      return inner.query(sql, params, options);
    }) as QueryExecutor['query'],
    transaction: <T>(fn: (tx: QueryExecutor) => Promise<T>) => inner.transaction((tx) => fn(tx)),
  };
  return wrapped;
}

async function measure(name: string, store: UserStore, counter?: { count: number }) {
  const ids = await load(store);
  const scim = createScim({
    store,
    verifier: staticApiKeys([{ key: 'k', tenant: TENANT }]),
    mailer: { sendWelcome: async () => undefined },
  });
  const get = (path: string, query: string) => async () => {
    const reply = await scim.handle({
      method: 'GET',
      path,
      query,
      headers: { authorization: 'Bearer k' },
      baseUrl: 'http://localhost',
    });
    if (reply.status !== 200) throw new Error(`${path}?${query}: ${reply.status} ${reply.body}`);
  };
  const user = ids[Math.floor(ids.length / 2)] as string;
  const requests: [string, () => Promise<void>][] = [
    ['GET /Users/{id}, groups shown', get(`/Users/${user}`, '')],
    [
      'GET /Users/{id}, excludedAttributes=groups',
      get(`/Users/${user}`, 'excludedAttributes=groups'),
    ],
    ['page of 100, groups shown', get('/Users', 'startIndex=101&count=100')],
    [
      'page of 100, excludedAttributes=groups',
      get('/Users', 'startIndex=101&count=100&excludedAttributes=groups'),
    ],
    [
      'filter groups.value eq (a class of 25), excludedAttributes=groups',
      get(
        '/Users',
        `filter=${encodeURIComponent('groups.value eq "class-00010"')}&excludedAttributes=groups`,
      ),
    ],
    [
      `filter groups[value eq] (nested: all ${USERS}), count=100, excludedAttributes=groups`,
      get(
        '/Users',
        `filter=${encodeURIComponent('groups[value eq "school"]')}&count=100&excludedAttributes=groups`,
      ),
    ],
  ];
  const statements: number[] = [];
  for (const [, run] of requests) {
    const before = counter?.count ?? 0;
    await run();
    statements.push((counter?.count ?? 0) - before);
  }
  const times = await compareInterleaved(
    requests.map(([, run]) => run),
    ROUNDS,
    BUDGET_MS,
  );
  console.log(`\n### ${name}\n`);
  console.log(`| request | median | statements |`);
  console.log(`| --- | --- | --- |`);
  requests.forEach(([label], i) => {
    const m = median(times[i] as number[]);
    const sql = counter ? String(statements[i]) : '—';
    console.log(`| ${label} | ${(m * 1000).toFixed(0)} µs | ${sql} |`);
  });
}

async function onPostgres(name: string, executor: QueryExecutor) {
  const schema = `scimkit_bench_usergroups_${Math.random().toString(36).slice(2, 8)}`;
  const counted = counting(executor);
  try {
    const store = new PostgresUserStore({ executor: counted, schema, migrate: true });
    await measure(name, store, counted);
  } finally {
    await executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
}

async function main(): Promise<void> {
  console.log(`${USERS} users, rounds ${ROUNDS}, at most ${BUDGET_MS} ms per request; medians`);
  await measure('memory', new MemoryUserStore());
  await onEveryPostgres(onPostgres);
}

await main();
