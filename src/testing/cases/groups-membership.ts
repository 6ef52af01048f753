import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';
import { groupCase, memberIds, sortedIds } from './groups-factory.js';

/** The scale case's group size: enough to show a whole-list read, small enough for CI. */
const SCALE_MEMBERS = 1_000;

/** Membership: integrity, idempotence, versions, cascades, nesting and concurrency. */
export const groupMembershipCases: readonly StoreConformanceCase[] = [
  {
    id: 'groups.unknown-member-refused',
    title:
      'a member id that is no user or group of the tenant is refused with 400 invalidValue, and nothing is written',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u] = await createUsers(1);
      const ghost = group();
      await check.rejects(
        groups.create(ctx.tenant, ghost, [{ value: u }, { value: 'made-up-id' }]),
        400,
        'invalidValue',
        'create with an unknown member',
      );
      check.equal(await groups.get(ctx.tenant, ghost.id), null, 'the group after a refused create');
      const g = group();
      await groups.create(ctx.tenant, g, []);
      await check.rejects(
        groups.addMembers(ctx.tenant, g.id, [{ value: u }, { value: 'made-up-id' }]),
        400,
        'invalidValue',
        'add with an unknown member',
      );
      check.deepEqual(await groups.get(ctx.tenant, g.id), g, 'the group after a refused add');
    },
  },
  {
    id: 'groups.other-tenant-member-refused',
    title: "another tenant's user or group is refused as a member like a made-up id",
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [theirUser] = await createUsers(1, ctx.otherTenant);
      const theirGroup = group();
      await groups.create(ctx.otherTenant, theirGroup, []);
      const g = group();
      await groups.create(ctx.tenant, g, []);
      for (const id of [theirUser, theirGroup.id]) {
        await check.rejects(
          groups.addMembers(ctx.tenant, g.id, [{ value: id }]),
          400,
          'invalidValue',
          "add of another tenant's member",
        );
      }
      check.deepEqual(await groups.get(ctx.tenant, g.id), g, 'the group after refused adds');
      check.deepEqual(await groups.groupsOf(ctx.otherTenant, theirUser), [], 'their groupsOf');
    },
  },
  {
    id: 'groups.add-is-idempotent',
    title:
      'a member added twice is one membership; only real changes are reported and bump the version',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u, v] = await createUsers(2);
      const g = group();
      await groups.create(ctx.tenant, g, []);
      const first = await groups.addMembers(ctx.tenant, g.id, [
        { value: u, display: 'U' },
        { value: u },
      ]);
      check.deepEqual(first?.changed, [{ value: u, type: 'User', display: 'U' }], 'first add');
      check.equal(first?.version, 'W/"2"', 'version after the first add');
      const again = await groups.addMembers(ctx.tenant, g.id, [{ value: u }]);
      check.deepEqual(again?.changed, [], 'second add of the same member');
      check.equal(again?.version, 'W/"2"', 'version after a no-op add');
      const both = await groups.addMembers(ctx.tenant, g.id, [{ value: u }, { value: v }], {
        expectedVersion: 'W/"2"',
        lastModified: '2030-01-02T03:04:05.678Z',
      });
      check.deepEqual(both?.changed, [{ value: v, type: 'User' }], 'add of one new, one old');
      check.equal(both?.version, 'W/"3"', 'version');
      const got = await groups.get(ctx.tenant, g.id);
      check.deepEqual(memberIds(got), sortedIds([u, v]), 'members');
      check.equal(got?.meta.version, 'W/"3"', 'stored version');
      check.equal(got?.meta.lastModified, '2030-01-02T03:04:05.678Z', 'stored lastModified');
    },
  },
  {
    id: 'groups.membership-version-checked',
    title: 'add and remove with a stale expected version throw 412 and change nothing',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u, v] = await createUsers(2);
      const g = group();
      await groups.create(ctx.tenant, g, [{ value: u }]);
      const stale = { expectedVersion: 'W/"7"' };
      await check.rejects(
        groups.addMembers(ctx.tenant, g.id, [{ value: v }], stale),
        412,
        undefined,
        'stale add',
      );
      await check.rejects(
        groups.removeMembers(ctx.tenant, g.id, [u], stale),
        412,
        undefined,
        'stale remove',
      );
      check.deepEqual(
        await groups.get(ctx.tenant, g.id),
        { ...g, members: [{ value: u, type: 'User' }] },
        'the group after stale writes',
      );
    },
  },
  {
    id: 'groups.remove',
    title: 'remove drops the given members, ignores non-members and bumps the version once',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u, v, w] = await createUsers(3);
      const g = group();
      await groups.create(ctx.tenant, g, [{ value: u }, { value: v, display: 'V' }]);
      const none = await groups.removeMembers(ctx.tenant, g.id, [w, 'made-up-id']);
      check.deepEqual(
        none,
        { changed: [], version: 'W/"1"', lastModified: g.meta.lastModified },
        'remove of non-members',
      );
      const removed = await groups.removeMembers(ctx.tenant, g.id, [v, w, v]);
      check.deepEqual(removed?.changed, [{ value: v, type: 'User', display: 'V' }], 'removed');
      check.equal(removed?.version, 'W/"2"', 'version');
      check.deepEqual(memberIds(await groups.get(ctx.tenant, g.id)), [u], 'members left');
      check.deepEqual(await groups.groupsOf(ctx.tenant, v), [], "the removed member's groups");
    },
  },
  {
    id: 'groups.user-delete-cascades',
    title: "deleting a user removes its memberships and bumps its groups' versions",
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u, v] = await createUsers(2);
      const g = group();
      await groups.create(ctx.tenant, g, [{ value: u }, { value: v }]);
      check.equal(await ctx.store.delete(ctx.tenant, u), true, 'delete the user');
      const got = await groups.get(ctx.tenant, g.id);
      check.deepEqual(memberIds(got), [v], 'members after the user is deleted');
      check.equal(got?.meta.version, 'W/"2"', "the group's version");
      check.deepEqual(await groups.groupsOf(ctx.tenant, u), [], "the deleted user's groups");
      await check.rejects(
        groups.addMembers(ctx.tenant, g.id, [{ value: u }]),
        400,
        'invalidValue',
        'add of the deleted user',
      );
    },
  },
  {
    id: 'groups.group-delete-cascades',
    title: 'deleting a group removes its own members and its memberships in other groups',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u] = await createUsers(1);
      const child = group();
      await groups.create(ctx.tenant, child, [{ value: u }]);
      const parent = group();
      await groups.create(ctx.tenant, parent, [{ value: child.id }, { value: u }]);
      check.equal(await groups.delete(ctx.tenant, child.id), true, 'delete the child');
      const got = await groups.get(ctx.tenant, parent.id);
      check.deepEqual(memberIds(got), [u], "the parent's members");
      check.equal(got?.meta.version, 'W/"2"', "the parent's version");
      check.deepEqual(
        (await groups.groupsOf(ctx.tenant, u)).map((m) => m.value),
        [parent.id],
        "the user's groups",
      );
      check.deepEqual(
        await groups.groupsOf(ctx.tenant, child.id),
        [],
        "the deleted group's groups",
      );
    },
  },
  {
    id: 'groups.groups-of',
    title: "groupsOf lists a member's direct groups and, unless asked not to, the indirect ones",
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u] = await createUsers(1);
      const a = group({ displayName: 'A' });
      const b = group({ displayName: 'B' });
      const c = group({ displayName: 'C' });
      await groups.create(ctx.tenant, a, [{ value: u }]);
      await groups.create(ctx.tenant, b, [{ value: a.id }]);
      await groups.create(ctx.tenant, c, [{ value: b.id }, { value: u }]);
      check.deepEqual(
        await groups.groupsOf(ctx.tenant, u),
        [
          { value: a.id, display: 'A', type: 'direct' },
          { value: b.id, display: 'B', type: 'indirect' },
          { value: c.id, display: 'C', type: 'direct' },
        ],
        "the user's groups",
      );
      check.deepEqual(
        await groups.groupsOf(ctx.tenant, u, { indirect: false }),
        [
          { value: a.id, display: 'A', type: 'direct' },
          { value: c.id, display: 'C', type: 'direct' },
        ],
        "the user's direct groups",
      );
      check.deepEqual(
        (await groups.groupsOf(ctx.tenant, a.id)).map((m) => `${m.value}:${m.type}`),
        [`${b.id}:direct`, `${c.id}:indirect`],
        "a group's groups",
      );
    },
  },
  {
    id: 'groups.cycle-refused',
    title: 'a group cannot contain itself, directly or through nested groups',
    async run(ctx) {
      const { groups, group } = groupCase(ctx);
      const a = group();
      const b = group();
      await groups.create(ctx.tenant, a, []);
      await groups.create(ctx.tenant, b, [{ value: a.id }]);
      await check.rejects(
        groups.addMembers(ctx.tenant, a.id, [{ value: a.id }]),
        400,
        'invalidValue',
        'a group in itself',
      );
      await check.rejects(
        groups.addMembers(ctx.tenant, a.id, [{ value: b.id }]),
        400,
        'invalidValue',
        'a cycle of two',
      );
      await check.rejects(
        groups.replace(ctx.tenant, a, {
          expectedVersion: a.meta.version,
          members: [{ value: b.id }],
        }),
        400,
        'invalidValue',
        'a cycle through replace',
      );
      check.deepEqual(await groups.get(ctx.tenant, a.id), a, 'the group after refused writes');
    },
  },
  {
    id: 'groups.concurrent-adds',
    title: 'concurrent adds to one group all land, each with its own version',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const users = await createUsers(12);
      const g = group();
      await groups.create(ctx.tenant, g, []);
      const results = await Promise.all(
        users.map((u) => groups.addMembers(ctx.tenant, g.id, [{ value: u }])),
      );
      const got = await groups.get(ctx.tenant, g.id);
      check.deepEqual(memberIds(got), sortedIds(users.map((u) => u)), 'members');
      check.equal(got?.meta.version, `W/"${users.length + 1}"`, 'version');
      check.deepEqual(
        sortedIds(results.map((r) => r?.version ?? '')),
        sortedIds(users.map((_, i) => `W/"${i + 2}"`)),
        'one version per add',
      );
    },
  },
  {
    id: 'groups.large-group',
    title: `a group of ${SCALE_MEMBERS} members: one-member add and remove, and a read without members`,
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const users = await createUsers(SCALE_MEMBERS + 1);
      const extra = users.pop() as string;
      const g = group();
      await groups.create(
        ctx.tenant,
        g,
        users.map((u) => ({ value: u })),
      );
      const added = await groups.addMembers(ctx.tenant, g.id, [{ value: extra }]);
      check.deepEqual(added?.changed, [{ value: extra, type: 'User' }], 'add');
      const removed = await groups.removeMembers(ctx.tenant, g.id, [users[0]]);
      check.equal(removed?.changed.length, 1, 'remove');
      check.deepEqual(
        await groups.get(ctx.tenant, g.id, { members: false }),
        { ...g, meta: { ...g.meta, version: 'W/"3"', lastModified: removed?.lastModified } },
        'read without members',
      );
      const all = memberIds(await groups.get(ctx.tenant, g.id));
      check.equal(all.length, SCALE_MEMBERS, 'member count');
      check.deepEqual(
        all,
        sortedIds([...users.slice(1).map((u) => u), extra]),
        'members in id order',
      );
    },
  },
  {
    id: 'groups.replace-with-member-deltas',
    title:
      'replace renames a group and removes and adds members in one step under the expected version',
    async run(ctx) {
      const { groups, group, next, createUsers } = groupCase(ctx);
      const [u, v, w] = await createUsers(3);
      const g = group();
      await groups.create(ctx.tenant, g, [{ value: u }, { value: v }]);
      const renamed = next(g, { displayName: 'Renamed' });
      await check.rejects(
        groups.replace(ctx.tenant, renamed, {
          expectedVersion: 'W/"9"',
          removeMembers: [u],
          addMembers: [{ value: w }],
        }),
        412,
        undefined,
        'replace with deltas on a stale version',
      );
      check.deepEqual(
        memberIds(await groups.get(ctx.tenant, g.id)),
        sortedIds([u, v]),
        'after 412',
      );
      const result = await groups.replace(ctx.tenant, renamed, {
        expectedVersion: g.meta.version,
        removeMembers: [u, 'not-a-member'],
        addMembers: [{ value: w, display: 'W' }, { value: v }],
      });
      check.deepEqual(result?.removed, [{ value: u, type: 'User' }], 'removed');
      check.deepEqual(result?.added, [{ value: w, type: 'User', display: 'W' }], 'added');
      const stored = await groups.get(ctx.tenant, g.id);
      check.equal(stored?.displayName, 'Renamed', 'the new name');
      check.equal(stored?.meta.version, renamed.meta.version, 'the new version');
      check.deepEqual(memberIds(stored), sortedIds([v, w]), 'the members');
    },
  },
  {
    id: 'groups.replace-deltas-all-or-nothing',
    title:
      'a replace whose added member is unknown is refused with 400 invalidValue: no rename, no member removed',
    async run(ctx) {
      const { groups, group, next, createUsers } = groupCase(ctx);
      const [u, v] = await createUsers(2);
      const g = group();
      await groups.create(ctx.tenant, g, [{ value: u }]);
      await check.rejects(
        groups.replace(ctx.tenant, next(g, { displayName: 'Renamed' }), {
          expectedVersion: g.meta.version,
          removeMembers: [u],
          addMembers: [{ value: v }, { value: 'made-up-id' }],
        }),
        400,
        'invalidValue',
        'replace adding an unknown member',
      );
      const stored = await groups.get(ctx.tenant, g.id);
      check.equal(stored?.displayName, g.displayName, 'the name after a refused replace');
      check.equal(stored?.meta.version, g.meta.version, 'the version after a refused replace');
      check.deepEqual(memberIds(stored), [u], 'the members after a refused replace');
    },
  },
  {
    id: 'groups.member-pages',
    title:
      "members() pages through a group's members in id order after a given id; null for no group",
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const users = await createUsers(5);
      const g = group();
      await groups.create(
        ctx.tenant,
        g,
        users.map((value) => ({ value })),
      );
      const sorted = sortedIds(users);
      const first = await groups.members(ctx.tenant, g.id, { count: 2 });
      check.deepEqual(
        first?.map((m) => m.value),
        sorted.slice(0, 2),
        'the first page',
      );
      const rest = await groups.members(ctx.tenant, g.id, {
        after: sorted[1] as string,
        count: 10,
      });
      check.deepEqual(
        rest?.map((m) => m.value),
        sorted.slice(2),
        'the page after the first',
      );
      check.deepEqual(
        await groups.members(ctx.tenant, g.id, { after: sorted[4] as string, count: 10 }),
        [],
        'past the end',
      );
      check.equal(
        await groups.members(ctx.tenant, 'no-such-group', { count: 10 }),
        null,
        'no group',
      );
      check.equal(await groups.members(ctx.otherTenant, g.id, { count: 10 }), null, 'other tenant');
    },
  },
  {
    id: 'groups.first-members',
    title:
      'firstMembers, when the store has it, reads the first members of several groups as members() does',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const read = groups.firstMembers?.bind(groups);
      if (read === undefined) return ctx.skip('the store has no firstMembers');
      const users = await createUsers(4);
      const [wide, narrow, empty] = [group(), group(), group()];
      await groups.create(
        ctx.tenant,
        wide,
        users.map((value) => ({ value })),
      );
      await groups.create(ctx.tenant, narrow, [{ value: users[0] as string }]);
      await groups.create(ctx.tenant, empty, []);
      const ids = [wide.id, narrow.id, empty.id, 'no-such-group'];
      const found = await read(ctx.tenant, ids, 3);
      for (const id of [wide.id, narrow.id]) {
        check.deepEqual(
          found.get(id),
          await groups.members(ctx.tenant, id, { count: 3 }),
          `the first members of ${id} as members() reads them`,
        );
      }
      check.equal(found.has(empty.id), false, 'no entry for a group without members');
      check.equal(found.has('no-such-group'), false, 'no entry for an unknown group');
      check.equal((await read(ctx.otherTenant, ids, 3)).size, 0, 'nothing in another tenant');
      check.equal((await read(ctx.tenant, [], 3)).size, 0, 'nothing asked, nothing read');
    },
  },
];
