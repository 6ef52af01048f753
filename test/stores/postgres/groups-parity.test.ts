// GET /Groups has every list feature the Users have, on both stores. The
// PostgreSQL group store answers each filter and sort the memory group store answers, with
// the same groups in the same order (the memory store is the oracle), and both stores pass the
// group list cases of the conformance kit in full (none skipped as undeclared).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupStore } from '../../../src/contracts/group-store.js';
import type { AttributePath } from '../../../src/filter/ast.js';
import { checkFilter, parseFilter } from '../../../src/filter/index.js';
import { groupResourceType } from '../../../src/schema/group-resource-type.js';
import type { ScimGroup } from '../../../src/schema/group-schema.js';
import { MemoryUserStore } from '../../../src/stores/memory/index.js';
import type { PostgresUserStore } from '../../../src/stores/postgres/index.js';
import { storeConformanceCases } from '../../../src/testing/cases/index.js';
import { runStoreConformanceCase } from '../../../src/testing/run-store-conformance.js';
import { backends, makeUser, type Backend } from './harness.js';
import { GROUP_SCHEMA } from '../../../src/schema/urns.js';

const TYPE = groupResourceType();
const T = 'parity';

const group = (id: string, displayName: string, month: number, extra: Partial<ScimGroup> = {}) => {
  const at = `2025-${String(month).padStart(2, '0')}-01T00:00:00.000Z`;
  return {
    schemas: [GROUP_SCHEMA],
    id,
    displayName,
    meta: { resourceType: 'Group', created: at, lastModified: at, version: `W/"${month}"` },
    ...extra,
  } satisfies ScimGroup;
};

/** The same groups in both stores: nested, with and without members, externalId, display. */
async function seed(store: MemoryUserStore | PostgresUserStore): Promise<void> {
  for (const id of ['u1', 'u2', 'u3']) await store.create(T, makeUser({ id }));
  const groups = store.groups as GroupStore;
  await groups.create(T, group('g1', 'École Lincoln', 3, { externalId: 'EXT-1' }), [
    { value: 'u1', display: 'Ada Lovelace' },
    { value: 'u2', display: 'Grace' },
  ]);
  await groups.create(T, group('g2', 'teachers', 1, { externalId: 'ext-2' }), [{ value: 'u3' }]);
  await groups.create(T, group('g3', 'Teachers of Lincoln', 2), [
    { value: 'g1' },
    { value: 'u1', display: 'ada' },
  ]);
  await groups.create(T, group('g4', '100%_done\\', 4), []);
  await groups.create(T, group('g5', 'O\'Brien "Q"', 5, { externalId: 'EXT-10' }), []);
  await groups.create('other', group('g1', 'Elsewhere', 1), []);
}

/** Filters over every operator, logical form and kind of target of a group. */
const FILTERS = [
  'displayName eq "TEACHERS"',
  'displayName ne "teachers"',
  'displayName co "lincoln"',
  'displayName co "%"',
  'displayName co "_"',
  'displayName ew "\\\\"',
  'displayName eq "o\'brien \\"q\\""',
  'displayName sw "TEACH"',
  'displayName ew "OLN"',
  'displayName gt "m"',
  'displayName ge "teachers"',
  'displayName lt "Teachers of"',
  'displayName le "École"',
  'displayName pr',
  'displayName eq null',
  'externalId eq "EXT-1"',
  'externalId eq "ext-1"',
  'externalId ne "EXT-1"',
  'externalId co "XT-1"',
  'externalId gt "EXT-1"',
  'externalId pr',
  'not (externalId pr)',
  'externalId eq null',
  'id eq "g2"',
  'id gt "g1" and id lt "g5"',
  'id sw "g"',
  'meta.created gt "2025-02-01T00:00:00Z"',
  'meta.created eq "2025-03-01T00:00:00Z"',
  'meta.created le "2025-02-01T01:00:00+01:00"',
  'meta.lastModified ge "2025-04-01T00:00:00.000Z"',
  'meta.lastModified ne "2025-01-01T00:00:00Z"',
  'meta.version eq "W/\\"3\\""',
  'schemas eq "URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:GROUP"',
  'members pr',
  'not (members pr)',
  'members eq "u1"',
  'members.value eq "u1"',
  'members.value ne "u1"',
  'members.value gt "u1"',
  'members.value sw "g"',
  'members.value pr',
  'members.value eq null',
  'members[value eq "u3"]',
  'members[value eq "u1" or value eq "u3"]',
  'members[not (value eq "u1")]',
  'members.display eq "ADA"',
  'members.display co "love"',
  'members.display pr',
  'members.display eq null',
  'members.display ne "ada"',
  'members[display sw "g" and type eq "user"]',
  'members.type eq "Group"',
  'members[type eq "User" and not (display pr)]',
  'urn:ietf:params:scim:schemas:core:2.0:Group:members.value eq "u2"',
  'displayName sw "t" and members[value eq "u1"]',
  'not (members[value eq "u1"]) or externalId pr',
];

/** Sort paths both stores order by. */
const SORTS: readonly AttributePath[] = [
  { attribute: 'displayName' },
  { attribute: 'externalId' },
  { attribute: 'id' },
  { attribute: 'meta', subAttribute: 'created' },
  { attribute: 'meta', subAttribute: 'lastModified' },
  { attribute: 'meta', subAttribute: 'version' },
];

/** What neither store answers: a member's `$ref` is not stored, and members have no order. */
const REFUSED = [
  'members.$ref pr',
  'members[$ref co "Users"]',
  'members[value eq "u1" or $ref pr]',
];

describe.each(backends)(
  'the PostgreSQL group store answers as the memory one on $name',
  ({ open }) => {
    let backend: Backend;
    const memory = new MemoryUserStore();
    let store: PostgresUserStore;
    const both = (): [GroupStore, GroupStore] => [memory.groups as GroupStore, store.groups];

    beforeAll(async () => {
      backend = await open();
      store = backend.newStore();
      await store.migrate();
      await seed(memory);
      await seed(store);
    }, 60_000);
    afterAll(() => backend?.close());

    const ids = async (groups: GroupStore, query: Parameters<GroupStore['list']>[1]) => {
      const page = await groups.list(T, query);
      return { total: page.totalResults, ids: page.resources.map((g) => g.id) };
    };

    it.each(FILTERS)('%s: both declare it and find the same groups', async (text) => {
      const filter = checkFilter(parseFilter(text), TYPE);
      const [mem, pg] = both();
      expect([
        mem.capabilities?.supportsFilter?.(filter),
        pg.capabilities?.supportsFilter?.(filter),
      ]).toEqual([true, true]);
      const query = { filter, startIndex: 1, count: 100, members: false, resourceType: TYPE };
      const expected = await ids(mem, query);
      expect(await ids(pg, query)).toEqual(expected);
    });

    it('finds something with most of the filters (the seed is not empty for them)', async () => {
      let nonEmpty = 0;
      for (const text of FILTERS) {
        const filter = checkFilter(parseFilter(text), TYPE);
        const page = await store.groups.list(T, {
          filter,
          startIndex: 1,
          count: 100,
          members: false,
        });
        if (page.totalResults > 0) nonEmpty += 1;
      }
      expect(nonEmpty).toBeGreaterThan(FILTERS.length * 0.7);
    });

    it.each(REFUSED)('%s: both refuse it alike', (text) => {
      const filter = checkFilter(parseFilter(text), TYPE);
      expect(both().map((g) => g.capabilities?.supportsFilter?.(filter))).toEqual([false, false]);
    });

    it.each(SORTS)(
      'sortBy %o: both sort the same way, both directions, by index and by page',
      async (sortBy) => {
        const [mem, pg] = both();
        for (const sortOrder of ['ascending', 'descending'] as const) {
          expect([
            mem.capabilities?.supportsSort?.(sortBy),
            pg.capabilities?.supportsSort?.(sortBy),
          ]).toEqual([true, true]);
          const query = { sortBy, sortOrder, startIndex: 1, count: 100, resourceType: TYPE };
          const expected = await ids(mem, query);
          expect(expected.ids).toHaveLength(5);
          expect(await ids(pg, query)).toEqual(expected);
          const second = { ...query, startIndex: 2, count: 2 };
          expect(await ids(pg, second)).toEqual(await ids(mem, second));
        }
      },
    );

    it('neither sorts by members', () => {
      const members = { attribute: 'members', subAttribute: 'value' };
      expect(both().map((g) => g.capabilities?.supportsSort?.(members))).toEqual([false, false]);
    });

    it('lists members with the page, and leaves them out with members: false, alike', async () => {
      const [mem, pg] = both();
      const filter = checkFilter(parseFilter('members pr'), TYPE);
      for (const members of [true, false]) {
        const query = { filter, startIndex: 1, count: 10, members, resourceType: TYPE };
        const want = (await mem.list(T, query)).resources;
        expect((await pg.list(T, query)).resources).toEqual(want);
      }
    });

    // Each group list case of the kit, on both stores, in full: a case skipped because a store
    // does not declare a filter or sort would fail here.
    const listCases = storeConformanceCases.filter(
      (c) =>
        c.id === 'groups.filters' ||
        c.id === 'groups.filter-operators' ||
        c.id.startsWith('groups.sort') ||
        c.id.startsWith('groups.keyset'),
    );
    it.each(listCases.map((c) => [c.id, c] as const))(
      'kit case %s passes on both stores, not skipped',
      async (_id, testCase) => {
        expect(listCases.length).toBeGreaterThanOrEqual(6);
        for (const factory of [() => new MemoryUserStore(), () => backend.newStore()]) {
          const result = await runStoreConformanceCase(testCase, factory);
          expect(result.error ?? result.reason ?? result.status).toBe('passed');
        }
      },
    );
  },
);
