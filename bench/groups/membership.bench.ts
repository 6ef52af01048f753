/**
 * Membership at scale (issue 13 item 5): adding or removing one member, reading a group
 * without its members and a user's groups, for groups of 10, 10,000 and 100,000 members side by
 * side in one run, on the memory store, PGlite, and a PostgreSQL server when
 * SCIMKIT_TEST_DATABASE_URL or DATABASE_URL is set. Medians; the sizes of one operation are
 * timed interleaved (10, 10k, 100k, 10, ...) so load hits them alike.
 *
 *   node --import tsx bench/groups/membership.bench.ts [--rounds 300] [--budget-ms 8000]
 */
import type { UserStore } from '../../src/contracts/user-store.js';
import type { ScimGroup } from '../../src/schema/group-schema.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresUserStore, migrate, type QueryExecutor } from '../../src/stores/postgres/index.js';
import { createUserFactory } from '../../src/testing/index.js';
import { compareInterleaved, median } from '../postgres/measure.js';
import { onEveryPostgres } from './every-postgres.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';

const SIZES = [10, 10_000, 100_000] as const;
const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const ROUNDS = arg('--rounds', 300);
const BUDGET_MS = arg('--budget-ms', 8_000);

interface Fixture {
  readonly tenant: string;
  readonly groupId: string;
  /** A user outside the group: added, then removed, round after round. */
  readonly joiner: string;
  /** A user inside the group, for groupsOf. */
  readonly member: string;
}

const group = (id: string): ScimGroup => ({
  schemas: [GROUP_SCHEMA],
  id,
  displayName: `Group ${id}`,
  meta: {
    resourceType: 'Group',
    created: '2025-01-01T00:00:00.000Z',
    lastModified: '2025-01-01T00:00:00.000Z',
    version: 'W/"1"',
  },
});

/** Loads a group of `size` members through the store's own calls (memory). */
async function loadMemory(store: MemoryUserStore, size: number): Promise<Fixture> {
  const tenant = `bench-${size}`;
  const users = createUserFactory(tenant);
  const ids: string[] = [];
  for (let i = 0; i <= size; i++) {
    const user = users.make();
    await store.create(tenant, user);
    ids.push(user.id);
  }
  const joiner = ids.pop() as string;
  const groupId = `g-${size}`;
  await store.groups?.create(
    tenant,
    group(groupId),
    ids.map((value) => ({ value })),
  );
  return { tenant, groupId, joiner, member: ids[0] as string };
}

/** Loads a group of `size` members with set-based SQL (PostgreSQL), as the store writes rows. */
async function loadSql(executor: QueryExecutor, schema: string, size: number): Promise<Fixture> {
  const tenant = `bench-${size}`;
  const s = `"${schema}"`;
  await executor.query(
    `INSERT INTO ${s}.users (tenant, id, user_name, user_name_key, version, created, last_modified, doc)
     SELECT $1, id, id || '@example.org', id || '@example.org', 'W/"1"', now(), now(),
       jsonb_build_object('id', id, 'userName', id || '@example.org',
         'meta', jsonb_build_object('resourceType', 'User', 'version', 'W/"1"'))
     FROM (SELECT 'u' || lpad(i::text, 9, '0') AS id FROM generate_series(0, $2::int) AS i) AS g`,
    [tenant, size],
  );
  const groupId = `g-${size}`;
  const store = new PostgresUserStore({ executor, schema });
  await store.groups?.create(tenant, group(groupId), []);
  await executor.query(
    `INSERT INTO ${s}.group_members (tenant, group_id, member_id, member_type)
     SELECT $1, $2, 'u' || lpad(i::text, 9, '0'), 'User' FROM generate_series(1, $3::int) AS i`,
    [tenant, groupId, size],
  );
  await executor.query(`ANALYZE ${s}.users`);
  await executor.query(`ANALYZE ${s}.group_members`);
  return { tenant, groupId, joiner: 'u000000000', member: 'u000000001' };
}

/** Times the four operations across the sizes and prints one markdown table. */
async function measure(name: string, store: UserStore, fixtures: Fixture[]): Promise<void> {
  const groups = store.groups;
  if (!groups) throw new Error(`${name} has no groups`);
  const operations: [string, (f: Fixture) => Promise<unknown>][] = [
    [
      'add one member + remove it',
      async (f) => {
        await groups.addMembers(f.tenant, f.groupId, [{ value: f.joiner }]);
        await groups.removeMembers(f.tenant, f.groupId, [f.joiner]);
      },
    ],
    ['get without members', (f) => groups.get(f.tenant, f.groupId, { members: false })],
    ['groupsOf(member)', (f) => groups.groupsOf(f.tenant, f.member)],
  ];
  console.log(`\n### ${name}\n`);
  console.log(
    `| operation | ${SIZES.map((n) => `${n.toLocaleString('en')} members`).join(' | ')} | 100,000 / 10 |`,
  );
  console.log(`| --- | ${SIZES.map(() => '---').join(' | ')} | --- |`);
  for (const [label, run] of operations) {
    const times = await compareInterleaved(
      fixtures.map((f) => () => run(f)),
      ROUNDS,
      BUDGET_MS,
    );
    const medians = times.map((t) => median(t));
    const cells = medians.map((m) => `${(m * 1000).toFixed(0)} µs`);
    const ratio = (medians[2] as number) / (medians[0] as number);
    console.log(`| ${label} | ${cells.join(' | ')} | ${ratio.toFixed(2)}x |`);
  }
}

async function onPostgres(name: string, executor: QueryExecutor) {
  const schema = `scimkit_bench_groups_${Math.random().toString(36).slice(2, 8)}`;
  try {
    await migrate(executor, { schema });
    const started = performance.now();
    const fixtures: Fixture[] = [];
    for (const size of SIZES) fixtures.push(await loadSql(executor, schema, size));
    console.log(`\n(${name}: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    await measure(name, new PostgresUserStore({ executor, schema }), fixtures);
  } finally {
    await executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
}

async function main(): Promise<void> {
  console.log(`rounds ${ROUNDS}, at most ${BUDGET_MS} ms per operation; medians`);
  const memory = new MemoryUserStore();
  const fixtures: Fixture[] = [];
  for (const size of SIZES) fixtures.push(await loadMemory(memory, size));
  await measure('memory', memory, fixtures);
  await onEveryPostgres(onPostgres);
}

await main();
