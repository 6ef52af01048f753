import type { GroupListQuery, GroupStore } from '../../contracts/group-store.js';
import type { ListSeek } from '../../contracts/store-query.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { groupResourceType } from '../../schema/group-resource-type.js';
import type { ScimGroup } from '../../schema/group-schema.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { eq } from './filter-builders.js';
import { groupCase } from './groups-factory.js';
import { walkPages } from './keyset-paging.js';

const displayName: AttributePath = { attribute: 'displayName' };
const externalId: AttributePath = { attribute: 'externalId' };
const ids = (groups: readonly (ScimGroup | undefined)[]) => groups.map((g) => g?.id);

type Query = Omit<GroupListQuery, 'startIndex' | 'seek'>;

/** Creates `made` in reverse id order (as clocks and retries allow) and returns it. */
async function createReversed(
  ctx: StoreTestContext,
  groups: GroupStore,
  made: ScimGroup[],
): Promise<ScimGroup[]> {
  for (const group of [...made].reverse()) await groups.create(ctx.tenant, group, []);
  return made;
}

/** One page of groups by index, in the order asked. */
async function listed(ctx: StoreTestContext, groups: GroupStore, query: Query) {
  const page = await groups.list(ctx.tenant, {
    startIndex: 1,
    members: false,
    resourceType: groupResourceType(),
    ...query,
  });
  return page.resources.map((g) => g.id);
}

/** Opens a keyset case: skips it unless the store's groups declare keyset paging. */
function keysetCase(ctx: StoreTestContext) {
  const opened = groupCase(ctx);
  if (opened.groups.capabilities?.keysetPaging !== true)
    ctx.skip('the group store does not declare keysetPaging');
  const page = (query: Query, seek: ListSeek) =>
    opened.groups.list(ctx.tenant, {
      members: false,
      resourceType: groupResourceType(),
      ...query,
      startIndex: 1,
      seek,
    });
  const walk = (query: Query) => walkPages((seek) => page(query, seek));
  return { ...opened, page, walk };
}

/** `sortBy` and keyset paging (`ListQuery.seek`) of groups, as the user cases hold users. */
export const groupPagingCases: readonly StoreConformanceCase[] = [
  {
    id: 'groups.sort',
    title:
      'list sorts groups by displayName regardless of case, by externalId (groups without one last ascending), by meta.created and by id, both ways',
    async run(ctx) {
      const { groups, group } = groupCase(ctx);
      const made = (month: number, changes: Partial<ScimGroup>) => {
        const at = `2025-0${month}-01T00:00:00.000Z`;
        const meta = { resourceType: 'Group', created: at, lastModified: at, version: 'W/"1"' };
        return group({ ...changes, meta: meta as ScimGroup['meta'] });
      };
      const [a, b, c] = await createReversed(ctx, groups, [
        made(1, { displayName: 'École Lincoln', externalId: 'ext-L' }),
        made(2, { displayName: 'Teachers', externalId: 'ext-T' }),
        made(3, { displayName: 'art club' }),
      ]);
      const orders: [AttributePath, (ScimGroup | undefined)[]][] = [
        [displayName, [c, b, a]],
        [externalId, [a, b, c]],
        [{ attribute: 'id' }, [a, b, c]],
        [{ attribute: 'meta', subAttribute: 'created' }, [a, b, c]],
      ];
      const undeclared: string[] = [];
      for (const [sortBy, ascending] of orders) {
        const what = `sortBy ${sortBy.attribute}${sortBy.subAttribute ? `.${sortBy.subAttribute}` : ''}`;
        if (!groups.capabilities?.supportsSort?.(sortBy)) {
          undeclared.push(what);
          continue;
        }
        check.deepEqual(await listed(ctx, groups, { count: 10, sortBy }), ids(ascending), what);
        check.deepEqual(
          await listed(ctx, groups, { count: 10, sortBy, sortOrder: 'descending' }),
          ids([...ascending].reverse()),
          `${what} descending`,
        );
      }
      if (undeclared.length > 0) ctx.skip(`the store does not declare: ${undeclared.join('; ')}`);
    },
  },
  {
    id: 'groups.keyset-walks-in-id-order',
    title:
      'keyset pages of groups cover every group once in id order, backward too, with the total',
    async run(ctx) {
      const { groups, group, page, walk } = keysetCase(ctx);
      const all = await createReversed(
        ctx,
        groups,
        Array.from({ length: 7 }, () => group()),
      );
      const first = await page({ count: 3 }, {});
      check.equal(first.totalResults, 7, 'totalResults of a keyset page');
      check.deepEqual(first.seek?.last, { id: all[2]?.id }, 'seek.last in id order');
      check.deepEqual(
        await walk({ count: 3 }),
        [ids(all.slice(0, 3)), ids(all.slice(3, 6)), ids(all.slice(6))],
        'pages',
      );
      const before = await page(
        { count: 3 },
        { from: { id: all[4]?.id as string }, direction: 'backward' },
      );
      check.deepEqual(ids(before.resources), ids(all.slice(1, 4)), 'the page before');
      check.equal(before.seek?.more, true, 'more before it');
      const last = await page({ count: 4 }, { direction: 'backward' });
      check.deepEqual(ids(last.resources), ids(all.slice(3)), 'the last page');
    },
  },
  {
    id: 'groups.keyset-place-survives-writes',
    title:
      'a page of groups after a place continues after it when that group and others are gone or new',
    async run(ctx) {
      const { groups, group, page } = keysetCase(ctx);
      const [a, b, c, d, e] = await createReversed(
        ctx,
        groups,
        Array.from({ length: 5 }, () => group()),
      );
      check.ok(a && b && c && d && e, 'seeding failed');
      const first = await page({ count: 2 }, {});
      check.ok(first.seek?.last, 'seek.last');
      await groups.delete(ctx.tenant, b.id); // the place itself
      await groups.delete(ctx.tenant, d.id);
      // Before the place as a string ("-" < "0"): not on later pages.
      await groups.create(ctx.tenant, group({ id: `${a.id.slice(0, -1)}-` }), []);
      const late = group();
      await groups.create(ctx.tenant, late, []);
      const next = await page({ count: 10 }, { from: first.seek.last });
      check.deepEqual(ids(next.resources), ids([c, e, late]), 'groups after the place');
      check.equal(next.seek?.more, false, 'more');
    },
  },
  {
    id: 'groups.keyset-sorted-and-filtered',
    title:
      'keyset pages of groups follow sortBy both ways (no value last ascending) and hold only the matches of a filter',
    async run(ctx) {
      const { groups, group, createUsers, walk } = keysetCase(ctx);
      if (!groups.capabilities?.supportsSort?.(externalId))
        ctx.skip('the group store does not declare sorting by externalId');
      const [u] = await createUsers(1);
      const [n1, z, a, n2, m] = await createReversed(ctx, groups, [
        group(),
        group({ externalId: 'z-1' }),
        group({ externalId: 'a-1' }),
        group(),
        group({ externalId: 'm-1' }),
      ]);
      const up = await walk({ count: 2, sortBy: externalId });
      check.deepEqual(up.flat(), ids([a, m, z, n1, n2]), 'ascending');
      const down = await walk({ count: 2, sortBy: externalId, sortOrder: 'descending' });
      check.deepEqual(down.flat(), ids([n1, n2, z, m, a]), 'descending');
      for (const holder of [z, n2, m])
        await groups.addMembers(ctx.tenant, holder?.id as string, [{ value: u }]);
      const filter: Filter = {
        kind: 'valuePath',
        path: { attribute: 'members' },
        filter: eq('value', u),
      };
      if (!(groups.capabilities?.supportsFilter?.(filter) ?? true))
        ctx.skip('the group store does not declare members[value eq]');
      const held = await walk({ count: 2, filter });
      check.deepEqual(held, [ids([z, n2]), ids([m])], 'members[value eq] by id');
    },
  },
];
