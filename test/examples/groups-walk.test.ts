// A directory's group life, walked over HTTP on the example server, on each store it can run
// on: users and groups created, members added and removed in each IdP's shape, a user's
// `groups` read, users filtered by group, a rename, a member user deleted, the group deleted.
import { describe, expect, it } from 'vitest';
import {
  createGroup,
  expectScimError,
  groupsOfUser,
  memberIdsOf,
  patchGroup,
  ScimClient,
  usersInGroup,
} from '../http/contract-client.js';
import { exampleStores, serveDuringTests } from './example-stores.js';

for (const store of exampleStores('groups_walk')) {
  const title = `groups walk over HTTP on the example server (${store.name})`;
  const { skip } = store;
  describe.skipIf(skip !== undefined)(skip ? `${title}, skipped: ${skip}` : title, () => {
    const client = new ScimClient(serveDuringTests(store), 'k1');

    it('creates, changes membership as each IdP sends it, renames and deletes', async () => {
      const userId = async (local: string) =>
        String((await client.createUser(`${local}@lincoln.example.org`)).json?.id);
      const ada = await userId('ada');
      const bob = await userId('bob');
      const cy = await userId('cy');
      const teachers = String((await createGroup(client, 'Teachers', [ada])).json?.id);
      expect(await memberIdsOf(client, teachers)).toEqual([ada]);

      // Entra ID: "Add" with a list, then "Remove" with a value list (only cy leaves).
      await patchGroup(client, teachers, {
        op: 'Add',
        path: 'members',
        value: [{ value: bob }, { value: cy }],
      });
      expect(await memberIdsOf(client, teachers)).toEqual([ada, bob, cy].sort());
      await patchGroup(client, teachers, {
        op: 'Remove',
        path: 'members',
        value: [{ $ref: null, value: cy }],
      });
      expect(await memberIdsOf(client, teachers)).toEqual([ada, bob].sort());

      // Okta, OneLogin, JumpCloud, Entra with aadOptscim062020: remove by a value filter.
      await patchGroup(client, teachers, { op: 'remove', path: `members[value eq "${bob}"]` });
      expect(await memberIdsOf(client, teachers)).toEqual([ada]);

      // Okta: replace of the whole list; RFC 7644: a path-less add.
      await patchGroup(client, teachers, {
        op: 'replace',
        path: 'members',
        value: [{ value: ada }, { value: cy }],
      });
      expect(await memberIdsOf(client, teachers)).toEqual([ada, cy].sort());
      await patchGroup(client, teachers, { op: 'add', value: { members: [{ value: bob }] } });
      expect(await memberIdsOf(client, teachers)).toEqual([ada, bob, cy].sort());

      // A user's groups, direct and through a nested group, and users filtered by group.
      const staff = String((await createGroup(client, 'All staff', [teachers])).json?.id);
      expect((await groupsOfUser(client, ada)).map((g) => [g.value, g.display, g.type])).toEqual([
        [teachers, 'Teachers', 'direct'],
        [staff, 'All staff', 'indirect'],
      ]);
      expect(await usersInGroup(client, teachers)).toEqual([ada, bob, cy].sort());
      expect(await usersInGroup(client, staff)).toEqual([ada, bob, cy].sort());

      // Okta's path-less rename (its `id` is readOnly and ignored): the users see the new name.
      await patchGroup(client, teachers, {
        op: 'replace',
        value: { id: teachers, displayName: 'Lincoln Teachers' },
      });
      expect(await memberIdsOf(client, teachers)).toEqual([ada, bob, cy].sort());
      expect((await groupsOfUser(client, cy)).map((g) => g.display)).toEqual([
        'Lincoln Teachers',
        'All staff',
      ]);

      // A deleted member user is gone from the group and from the filter.
      expect((await client.send('DELETE', `/Users/${bob}`)).status).toBe(204);
      expect(await memberIdsOf(client, teachers)).toEqual([ada, cy].sort());
      expect(await usersInGroup(client, teachers)).toEqual([ada, cy].sort());

      // A deleted group is gone from its members' groups, and from the group that held it.
      expect((await client.send('DELETE', `/Groups/${teachers}`)).status).toBe(204);
      expectScimError(await client.send('GET', `/Groups/${teachers}`), 404);
      expect(await groupsOfUser(client, ada)).toEqual([]);
      expect(await groupsOfUser(client, cy)).toEqual([]);
      expect(await usersInGroup(client, teachers)).toEqual([]);
      expect(await usersInGroup(client, staff)).toEqual([]);
      expect(await memberIdsOf(client, staff)).toEqual([]);
    }, 60_000);
  });
}
