import type { Filter } from '../../filter/ast.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { check, withoutGroups } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { eq, idsMatching, supports } from './filter-builders.js';
import { groupCase, sortedIds } from './groups-factory.js';

/** `groups[value eq "<id>"]`: the users in one group, directly or through nested groups. */
const inGroup = (groupId: string): Filter => ({
  kind: 'valuePath',
  path: { attribute: 'groups' },
  filter: eq('value', groupId),
});

/** Checks that `filter` finds exactly the users `expected` in the case's tenant. */
async function expectUsers(
  ctx: StoreTestContext,
  filter: Filter,
  expected: readonly string[],
  what: string,
  tenant = ctx.tenant,
): Promise<void> {
  const ids = sortedIds(expected);
  const found = await idsMatching(ctx.store, tenant, filter);
  check.deepEqual(found, { totalResults: ids.length, ids }, what);
}

/** Opens a case on the user's `groups`: skips it unless the store filters by group. */
function usersGroupsCase(ctx: StoreTestContext) {
  const opened = groupCase(ctx);
  if (!supports(ctx.store, inGroup('g')) || !supports(ctx.store, eq('groups.value', 'g')))
    ctx.skip('the store does not declare support for filters on groups.value');
  return opened;
}

/**
 * The User's `groups` as a store with `groups` answers it: a batch read of many members'
 * groups, and filters by group (`groups[value eq "g"]`, `groups.value eq "g"`).
 */
export const userGroupsCases: readonly StoreConformanceCase[] = [
  {
    id: 'groups.members-of-many',
    title:
      "groupsOfMembers reads several members' groups at once, each as groupsOf lists it; members in no group have no entry",
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u, v, w] = await createUsers(3);
      const inner = group();
      const outer = group();
      await groups.create(ctx.tenant, inner, [{ value: u }]);
      await groups.create(ctx.tenant, outer, [{ value: inner.id }, { value: v }, { value: u }]);
      const asked = [u, v, w, inner.id, 'made-up-id'];
      const found = await groups.groupsOfMembers(ctx.tenant, asked);
      check.deepEqual(
        sortedIds([...found.keys()]),
        sortedIds([u, v, inner.id]),
        'the ids with an entry',
      );
      for (const id of asked) {
        const one = await groups.groupsOf(ctx.tenant, id);
        check.deepEqual(found.get(id) ?? [], one, `groupsOfMembers of ${id} as groupsOf`);
        const direct = await groups.groupsOfMembers(ctx.tenant, [id], { indirect: false });
        check.deepEqual(
          direct.get(id) ?? [],
          await groups.groupsOf(ctx.tenant, id, { indirect: false }),
          `direct groups of ${id}`,
        );
      }
      check.deepEqual(
        found.get(u)?.map((g) => g.type),
        ['direct', 'direct'],
        'a member both directly and through a nested group is direct',
      );
      check.equal((await groups.groupsOfMembers(ctx.tenant, [])).size, 0, 'no ids');
      check.equal((await groups.groupsOfMembers(ctx.otherTenant, [u, v])).size, 0, 'other tenant');
    },
  },
  {
    id: 'users.groups-carried',
    title:
      'a user get or list returns carries groups only as groupsOfMembers lists them, read with the user, and a replace stores none',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const { store, tenant } = ctx;
      const [u, v, w] = await createUsers(3);
      const inner = group();
      const outer = group();
      await groups.create(tenant, inner, [{ value: w }]);
      await groups.create(tenant, outer, [{ value: inner.id }, { value: u }]);
      let carried = 0;
      const agrees = async (user: ScimUser | null, what: string) => {
        check.ok(user !== null, `${what}: the user is there`);
        if (user.groups === undefined) return;
        carried++;
        const listed = (await groups.groupsOfMembers(tenant, [user.id])).get(user.id) ?? [];
        check.deepEqual(user.groups, listed, `${what}: groups as groupsOfMembers lists them`);
      };
      for (const id of [u, v, w]) await agrees(await store.get(tenant, id), `get ${id}`);
      const page = await store.list(tenant, { startIndex: 1, count: 10 });
      for (const user of page.resources) await agrees(user, `list ${user.id}`);
      // Never older than the read: v joins a group, the next read shows it.
      await groups.addMembers(tenant, outer.id, [{ value: v }]);
      const current = await store.get(tenant, v);
      await agrees(current, 'get after an add');
      check.ok(current !== null, 'v is there');
      // The core hands a replace the user without `groups`, and the store keeps none.
      const next = ctx.users.next(withoutGroups(current), { displayName: 'Renamed' });
      check.equal(
        await store.replace(tenant, next, { expectedVersion: current.meta.version }),
        true,
        'replace',
      );
      if (ctx.readStored) {
        const stored = await ctx.readStored(tenant, v);
        check.equal(stored?.groups, undefined, 'what a replace stored has no groups');
      }
      await agrees(await store.get(tenant, v), 'get after a replace');
      if (carried === 0) ctx.skip('the store hands no groups over with its users');
    },
  },
  {
    id: 'users.groups-filter-direct',
    title: 'groups[value eq "g"] and groups.value eq "g" find the users directly in group g',
    async run(ctx) {
      const { groups, group, createUsers } = usersGroupsCase(ctx);
      const [u, v] = await createUsers(3);
      const g = group();
      await groups.create(ctx.tenant, g, [{ value: u }, { value: v }]);
      await expectUsers(ctx, inGroup(g.id), [u, v], 'groups[value eq]');
      await expectUsers(ctx, eq('groups.value', g.id), [u, v], 'groups.value eq');
      await expectUsers(ctx, inGroup(g.id.toUpperCase()), [], 'the id in another case');
      await expectUsers(ctx, inGroup('made-up-id'), [], 'an unknown group');
      await expectUsers(
        ctx,
        { kind: 'and', left: inGroup(g.id), right: eq('id', v) },
        [v],
        'and-ed with id eq',
      );
    },
  },
  {
    id: 'users.groups-filter-nested',
    title: 'a group filter finds the users of nested groups too, at any depth',
    async run(ctx) {
      const { groups, group, createUsers } = usersGroupsCase(ctx);
      const [u, v, w] = await createUsers(3);
      const [inner, middle, outer] = [group(), group(), group()];
      await groups.create(ctx.tenant, inner, [{ value: u }]);
      await groups.create(ctx.tenant, middle, [{ value: inner.id }, { value: v }]);
      await groups.create(ctx.tenant, outer, [{ value: middle.id }]);
      await expectUsers(ctx, inGroup(outer.id), [u, v], 'users two and one levels down');
      await expectUsers(ctx, inGroup(inner.id), [u], 'the innermost group');
      await expectUsers(
        ctx,
        { kind: 'not', filter: inGroup(outer.id) },
        [w],
        'not in the outer group',
      );
    },
  },
  {
    id: 'users.groups-filter-other-tenant',
    title: "a filter by another tenant's group id finds nothing",
    async run(ctx) {
      const { groups, group, createUsers } = usersGroupsCase(ctx);
      const [theirs] = await createUsers(1, ctx.otherTenant);
      await createUsers(1);
      const g = group();
      await groups.create(ctx.otherTenant, g, [{ value: theirs }]);
      await expectUsers(ctx, inGroup(g.id), [], "another tenant's group");
      await expectUsers(ctx, inGroup(g.id), [theirs], 'in its own tenant', ctx.otherTenant);
    },
  },
  {
    id: 'users.groups-deleted-group',
    title: "a deleted group is gone from its members' groups and from the filter",
    async run(ctx) {
      const { groups, group, createUsers } = usersGroupsCase(ctx);
      const [u] = await createUsers(1);
      const [inner, outer] = [group(), group()];
      await groups.create(ctx.tenant, inner, [{ value: u }]);
      await groups.create(ctx.tenant, outer, [{ value: inner.id }]);
      await expectUsers(ctx, inGroup(outer.id), [u], 'before the delete');
      check.equal(await groups.delete(ctx.tenant, inner.id), true, 'delete of the inner group');
      check.deepEqual(await groups.groupsOf(ctx.tenant, u), [], "the member's groups after");
      await expectUsers(ctx, inGroup(inner.id), [], 'the deleted group');
      await expectUsers(ctx, inGroup(outer.id), [], 'the group that held it');
    },
  },
];
