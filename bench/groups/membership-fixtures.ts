/**
 * What the membership benchmarks share: one group of 10, 10,000 and 100,000 members, each in
 * a tenant of its own, loaded through the memory store's calls or with set-based SQL on
 * PostgreSQL, on every store at hand; and the table their medians are printed in.
 */
import type { UserStore } from '../../src/contracts/user-store.js';
import type { ScimGroup } from '../../src/schema/group-schema.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresUserStore, migrate, type QueryExecutor } from '../../src/stores/postgres/index.js';
import { createUserFactory } from '../../src/testing/index.js';
import { onEveryPostgres } from './every-postgres.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';

/** The group sizes every membership benchmark compares. */
export const SIZES = [10, 10_000, 100_000] as const;

/** Reads a number given on the command line as `--name <n>`, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/** One loaded group, and the users a benchmark moves in and out of it. */
export interface Fixture {
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
  const users = createUserFactory();
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
    `INSERT INTO ${s}.users
       (tenant, id, user_name, user_name_key, version, created, last_modified, doc, folded)
     SELECT $1, id, id || '@example.org', id || '@example.org', 'W/"1"', now(), now(),
       jsonb_build_object('id', id, 'userName', id || '@example.org',
         'meta', jsonb_build_object('resourceType', 'User', 'version', 'W/"1"')),
       jsonb_build_object('id', id, 'userName', id || '@example.org',
         'meta', jsonb_build_object('resourceType', 'user', 'version', 'w/"1"'))
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

/**
 * Loads the groups of every size on the memory store, PGlite, and the PostgreSQL server when
 * its URL is set (in a schema of its own, dropped after), and runs `measure` on each store.
 */
export async function onEveryLoadedStore(
  measure: (name: string, store: UserStore, fixtures: readonly Fixture[]) => Promise<void>,
): Promise<void> {
  const memory = new MemoryUserStore();
  const fixtures: Fixture[] = [];
  for (const size of SIZES) fixtures.push(await loadMemory(memory, size));
  await measure('memory', memory, fixtures);
  await onEveryPostgres(async (name, executor) => {
    const schema = `scimkit_bench_groups_${Math.random().toString(36).slice(2, 8)}`;
    try {
      await migrate(executor, { schema });
      const started = performance.now();
      const loaded: Fixture[] = [];
      for (const size of SIZES) loaded.push(await loadSql(executor, schema, size));
      console.log(`\n(${name}: loaded in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
      await measure(name, new PostgresUserStore({ executor, schema }), loaded);
    } finally {
      await executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    }
  });
}

/** Prints one markdown table: a row of medians (ms, one per size) per operation, and 100k / 10. */
export function printSizeTable(name: string, rows: readonly [string, readonly number[]][]): void {
  console.log(`\n### ${name}\n`);
  console.log(
    `| operation | ${SIZES.map((n) => `${n.toLocaleString('en')} members`).join(' | ')} | 100,000 / 10 |`,
  );
  console.log(`| --- | ${SIZES.map(() => '---').join(' | ')} | --- |`);
  for (const [label, medians] of rows) {
    const cells = medians.map((m) => `${(m * 1000).toFixed(0)} µs`);
    const ratio = (medians[2] as number) / (medians[0] as number);
    console.log(`| ${label} | ${cells.join(' | ')} | ${ratio.toFixed(2)}x |`);
  }
}
