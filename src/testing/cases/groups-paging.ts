import type { GroupListQuery, GroupStore } from '../../contracts/group-store.js';
import type { ListSeek } from '../../contracts/store-query.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { groupResourceType } from '../../schema/group-resource-type.js';
import type { ScimGroup } from '../../schema/group-schema.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { eq } from './filter-builders.js';
import { groupCase } from './groups-factory.js';
import { keysetCases, walkPages, type KeysetSubject } from './keyset-paging.js';

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

/** The groups of the case's store, as the keyset cases page through them. */
function groupsOf(ctx: StoreTestContext): KeysetSubject<ScimGroup> {
  const { groups, group } = groupCase(ctx);
  return {
    capabilities: groups.capabilities,
    make: (overrides) => group(overrides),
    create: (made) => groups.create(ctx.tenant, made, []),
    delete: (id) => groups.delete(ctx.tenant, id),
    list: (query) =>
      groups.list(ctx.tenant, { ...query, members: false, resourceType: groupResourceType() }),
  };
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
  ...keysetCases('groups.keyset-', 'groups', groupsOf),
  {
    id: 'groups.keyset-filtered-by-member',
    title: 'keyset pages of the groups of one member hold those groups only, with their total',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      if (groups.capabilities?.keysetPaging !== true)
        ctx.skip('the group store does not declare keysetPaging');
      const filter: Filter = {
        kind: 'valuePath',
        path: { attribute: 'members' },
        filter: eq('value', 'x'),
      };
      if (!(groups.capabilities?.supportsFilter?.(filter) ?? true))
        ctx.skip('the group store does not declare members[value eq]');
      const [u, v] = await createUsers(2);
      const made = Array.from({ length: 5 }, () => group());
      for (const [i, one] of made.entries())
        await groups.create(ctx.tenant, one, [{ value: i % 2 === 0 ? u : v }]);
      const ofU: Filter = { ...filter, filter: eq('value', u) };
      const read = (seek: ListSeek) =>
        groups.list(ctx.tenant, { count: 2, filter: ofU, startIndex: 1, seek, members: false });
      const first = await read({});
      check.equal(first.totalResults, 3, 'totalResults of the filter');
      check.deepEqual(
        await walkPages(read),
        [ids([made[0], made[2]]), ids([made[4]])],
        'the groups of the member, by id',
      );
    },
  },
];
