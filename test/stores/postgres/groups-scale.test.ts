import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFilter } from '../../../src/filter/index.js';
import type { ScimGroup } from '../../../src/schema/group-schema.js';
import {
  PostgresUserStore,
  type QueryExecutor,
  type Row,
} from '../../../src/stores/postgres/index.js';
import { backends, makeUser, type Backend } from './harness.js';
import { GROUP_SCHEMA } from '../../../src/schema/urns.js';

/** The size of the big group: large enough that reading its member list shows. */
const MEMBERS = 5_000;

interface Statement {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Wraps an executor so that every statement it runs is recorded. */
function spying(inner: QueryExecutor, seen: Statement[]): QueryExecutor {
  return {
    query<R = Row>(sql: string, params: readonly unknown[] = [], options?: { prepare?: boolean }) {
      seen.push({ sql, params });
      return inner.query<R>(sql, params, options);
    },
    transaction: (fn) => inner.transaction((tx) => fn(spying(tx, seen))),
  };
}

interface PlanNode {
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Every row a plan's nodes produced or filtered out: what the statement really read. */
function rowsTouched(node: PlanNode): number {
  const loops = node['Actual Loops'] ?? 1;
  let total =
    (node['Actual Rows'] ?? 0) * loops +
    (node['Rows Removed by Filter'] ?? 0) * loops +
    (node['Rows Removed by Index Recheck'] ?? 0) * loops;
  for (const child of node.Plans ?? []) total += rowsTouched(child);
  return total;
}

class Rollback extends Error {}

/** Runs each statement again under EXPLAIN ANALYZE, rolled back, and returns the most rows one read. */
async function mostRowsRead(executor: QueryExecutor, statements: Statement[]): Promise<number> {
  let most = 0;
  for (const { sql, params } of statements) {
    if (/pg_advisory_xact_lock/.test(sql)) continue;
    try {
      await executor.transaction(async (tx) => {
        const rows = await tx.query<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
          params,
        );
        const raw = rows[0]?.['QUERY PLAN'];
        const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
        most = Math.max(most, rowsTouched(plan[0]!.Plan));
        throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
  }
  return most;
}

for (const { name, open } of backends) {
  describe(`PostgreSQL groups at ${MEMBERS} members (${name})`, () => {
    let backend: Backend;
    let store: PostgresUserStore;
    let seen: Statement[];
    const tenant = 't-scale';
    const group: ScimGroup = {
      schemas: [GROUP_SCHEMA],
      id: 'g-big',
      displayName: 'All staff',
      meta: {
        resourceType: 'Group',
        created: '2025-01-01T00:00:00.000Z',
        lastModified: '2025-01-01T00:00:00.000Z',
        version: 'W/"1"',
      },
    };
    const joiner = makeUser();

    beforeAll(async () => {
      backend = await open();
      seen = [];
      const setup = backend.newStore();
      await setup.migrate();
      const first = makeUser();
      await setup.create(tenant, first);
      await setup.create(tenant, joiner);
      await setup.groups.create(tenant, group, [{ value: first.id }]);
      // The other members straight into the table: the store never checks rows it did not write.
      await backend.executor.query(
        `INSERT INTO "${backend.schema}".group_members (tenant, group_id, member_id, member_type)
         SELECT $1, $2, 'm' || lpad(i::text, 6, '0'), 'User' FROM generate_series(1, $3::int) AS i`,
        [tenant, group.id, MEMBERS - 1],
      );
      await backend.executor.query(`ANALYZE "${backend.schema}".group_members`);
      store = new PostgresUserStore({
        executor: spying(backend.executor, seen),
        schema: backend.schema,
      });
    });
    afterAll(async () => {
      await backend?.close();
    });

    async function readsOf(action: () => Promise<unknown>): Promise<number> {
      seen.length = 0;
      await action();
      const statements = [...seen];
      return mostRowsRead(backend.executor, statements);
    }

    it('adds and removes one member, and reads the group without members, reading a few rows', async () => {
      const add = await readsOf(() =>
        store.groups.addMembers(tenant, group.id, [{ value: joiner.id }]),
      );
      const remove = await readsOf(() => store.groups.removeMembers(tenant, group.id, [joiner.id]));
      const bare = await readsOf(() => store.groups.get(tenant, group.id, { members: false }));
      const groupsOf = await readsOf(() => store.groups.groupsOf(tenant, joiner.id));
      expect({ add, remove, bare, groupsOf }).toEqual({
        add: expect.toSatisfy((n: number) => n < 20),
        remove: expect.toSatisfy((n: number) => n < 20),
        bare: expect.toSatisfy((n: number) => n < 20),
        groupsOf: expect.toSatisfy((n: number) => n < 20),
      });
    });

    it('finds the groups of one member, and pages groups by keyset, reading a few rows', async () => {
      const member = 'm002500';
      const counts: Record<string, number> = {};
      for (const text of [`members[value eq "${member}"]`, `members.value eq "${member}"`]) {
        const filter = parseFilter(text);
        const page = async () => {
          const found = await store.groups.list(tenant, {
            filter,
            startIndex: 1,
            count: 10,
            members: false,
          });
          expect(found.resources.map((g) => g.id)).toEqual([group.id]);
        };
        counts[text] = await readsOf(page);
      }
      counts.seek = await readsOf(() =>
        store.groups.list(tenant, {
          startIndex: 1,
          count: 10,
          members: false,
          seek: { from: { id: 'g-a' } },
        }),
      );
      for (const [what, n] of Object.entries(counts)) expect(n, what).toBeLessThan(20);
    });

    it('reads the whole member list only when the members are asked for (the measure can see it)', async () => {
      const full = await readsOf(() => store.groups.get(tenant, group.id));
      expect(full).toBeGreaterThanOrEqual(MEMBERS);
      const got = await store.groups.get(tenant, group.id);
      expect(got?.members).toHaveLength(MEMBERS);
    });
  });
}
