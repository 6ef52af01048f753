import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';
import { groupCase, memberIds, sortedIds } from './groups-factory.js';

/** Create, get, replace, delete and list of groups, and their isolation between tenants. */
export const groupCrudCases: readonly StoreConformanceCase[] = [
  {
    id: 'groups.create-get',
    title: 'get returns the group create stored, with its members in id order, typed',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [b, a] = await createUsers(2);
      const child = group({ externalId: 'ext-child' });
      await groups.create(ctx.tenant, child, []);
      const parent = group({ externalId: 'ext-1', displayName: 'Teachers' });
      await groups.create(ctx.tenant, parent, [
        { value: b, display: 'B' },
        { value: a },
        { value: child.id, display: 'Child' },
      ]);
      const got = await groups.get(ctx.tenant, parent.id);
      const expected = sortedIds([a, b, child.id]).map((id) =>
        id === a
          ? { value: a, type: 'User' }
          : id === b
            ? { value: b, type: 'User', display: 'B' }
            : { value: child.id, type: 'Group', display: 'Child' },
      );
      check.deepEqual(got, { ...parent, members: expected }, 'get after create');
      check.deepEqual(await groups.get(ctx.tenant, child.id), child, 'a group without members');
    },
  },
  {
    id: 'groups.get-without-members',
    title: 'get with members: false returns the group without any members attribute',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const users = await createUsers(3);
      const g = group();
      await groups.create(
        ctx.tenant,
        g,
        users.map((u) => ({ value: u })),
      );
      const got = await groups.get(ctx.tenant, g.id, { members: false });
      check.deepEqual(got, g, 'get without members');
      check.equal(await groups.get(ctx.tenant, 'no-such-id'), null, 'get of an unknown id');
    },
  },
  {
    id: 'groups.replace',
    title:
      'replace checks the version, keeps members when none are sent and reports what a new list changed',
    async run(ctx) {
      const { groups, group, next, createUsers } = groupCase(ctx);
      const [u1, u2, u3] = await createUsers(3);
      const g = group();
      await groups.create(ctx.tenant, g, [{ value: u1 }, { value: u2 }]);
      const renamed = next(g, { displayName: 'Renamed' });
      const kept = await groups.replace(ctx.tenant, renamed, { expectedVersion: g.meta.version });
      check.deepEqual(kept, { added: [], removed: [] }, 'replace without members');
      check.deepEqual(
        memberIds(await groups.get(ctx.tenant, g.id)),
        sortedIds([u1, u2]),
        'members kept by a rename',
      );
      await check.rejects(
        groups.replace(ctx.tenant, next(renamed), { expectedVersion: g.meta.version }),
        412,
        undefined,
        'stale replace',
      );
      const third = next(renamed);
      const result = await groups.replace(ctx.tenant, third, {
        expectedVersion: renamed.meta.version,
        members: [{ value: u2 }, { value: u3 }],
      });
      check.deepEqual(
        result,
        { added: [{ value: u3, type: 'User' }], removed: [{ value: u1, type: 'User' }] },
        'replace with a member list',
      );
      const got = await groups.get(ctx.tenant, g.id);
      check.deepEqual(
        got,
        { ...third, members: sortedIds([u2, u3]).map((value) => ({ value, type: 'User' })) },
        'get after replace',
      );
      check.equal(
        await groups.replace(ctx.tenant, next(group()), { expectedVersion: 'W/"1"' }),
        null,
        'replace of an unknown id',
      );
    },
  },
  {
    id: 'groups.delete',
    title:
      'delete checks the version when given, removes the group and answers false when there is none',
    async run(ctx) {
      const { groups, group } = groupCase(ctx);
      const g = group();
      await groups.create(ctx.tenant, g, []);
      await check.rejects(
        groups.delete(ctx.tenant, g.id, { expectedVersion: 'W/"9"' }),
        412,
        undefined,
        'stale delete',
      );
      check.equal(
        await groups.delete(ctx.tenant, g.id, { expectedVersion: g.meta.version }),
        true,
        'delete',
      );
      check.equal(await groups.get(ctx.tenant, g.id), null, 'get after delete');
      check.equal(await groups.delete(ctx.tenant, g.id), false, 'delete again');
    },
  },
  {
    id: 'groups.list',
    title: 'list pages groups in id order with the total, with or without members',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u] = await createUsers(1);
      const made = [group(), group(), group()];
      for (const g of made) await groups.create(ctx.tenant, g, [{ value: u }]);
      const page = await groups.list(ctx.tenant, { startIndex: 2, count: 1, members: false });
      check.equal(page.totalResults, 3, 'totalResults');
      check.deepEqual(page.resources, [made[1]], 'second page without members');
      const full = await groups.list(ctx.tenant, { startIndex: 1, count: 10 });
      check.deepEqual(
        full.resources.map((g) => memberIds(g)),
        [[u], [u], [u]],
        'members of each group',
      );
    },
  },
  {
    id: 'groups.tenant-isolation',
    title: "another tenant's group does not exist for a tenant, whatever the method",
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u] = await createUsers(1);
      const [theirUser] = await createUsers(1, ctx.otherTenant);
      const theirs = group();
      await groups.create(ctx.otherTenant, theirs, [{ value: theirUser }]);
      check.equal(await groups.get(ctx.tenant, theirs.id), null, 'get');
      check.equal(
        await groups.replace(ctx.tenant, theirs, { expectedVersion: theirs.meta.version }),
        null,
        'replace',
      );
      check.equal(await groups.delete(ctx.tenant, theirs.id), false, 'delete');
      check.equal(await groups.addMembers(ctx.tenant, theirs.id, [{ value: u }]), null, 'add');
      check.equal(await groups.removeMembers(ctx.tenant, theirs.id, [theirUser]), null, 'remove');
      check.equal(
        (await groups.list(ctx.tenant, { startIndex: 1, count: 10 })).totalResults,
        0,
        'list',
      );
      check.deepEqual(await groups.groupsOf(ctx.tenant, theirUser), [], 'groupsOf');
      check.deepEqual(
        memberIds(await groups.get(ctx.otherTenant, theirs.id)),
        [theirUser],
        'the group in its own tenant',
      );
    },
  },
];
