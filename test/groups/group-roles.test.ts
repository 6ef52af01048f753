import { describe, expect, it } from 'vitest';
import { groupRoles, lincolnRoles } from '../../examples/recipes/group-roles.js';
import type { UserLifecycle } from '../../src/index.js';
import { patchBody, setup, USER_SCHEMA } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

// The roles recipe (examples/recipes/group-roles.ts) driven over HTTP: group membership changes
// sent as the IdPs send them, and the platform's view of each user's roles following them.
function school(cache = true) {
  const service = setup();
  const roles = groupRoles(service.scim, lincolnRoles, { cache });
  const rolesOf = async (id: string) => (await roles.rolesOf('tenant-a', id))?.all;
  async function group(displayName: string, members: string[] = []) {
    const reply = await service.request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName, members: members.map((value) => ({ value })) },
    });
    expect(reply.status).toBe(201);
    return reply.body.id as string;
  }
  async function patch(id: string, ...operations: Record<string, unknown>[]) {
    const reply = await service.request('PATCH', `/Groups/${id}`, {
      body: patchBody(...operations),
    });
    expect(reply.status).toBe(204);
  }
  return { ...service, roles, rolesOf, group, patch };
}

describe('roles from groups (examples/recipes/group-roles.ts)', () => {
  it('follows members added and removed, keeps the IdP’s own roles, and never writes them', async () => {
    const { createUser, request, rolesOf, roles, group, patch } = school();
    const ada = (await createUser('ada@lincoln.edu', { roles: [{ value: 'librarian' }] })).id;
    const bob = (await createUser('bob@lincoln.edu')).id;
    const teachers = await group('Teachers of Lincoln High', [ada]);
    expect(await roles.rolesOf('tenant-a', ada)).toEqual({
      fromIdp: ['librarian'],
      fromGroups: ['teacher'],
      all: ['librarian', 'teacher'],
    });
    expect(await rolesOf(bob)).toEqual([]); // kept: the next answer must come from an event

    await patch(teachers, { op: 'Add', path: 'members', value: [{ value: bob }] });
    expect(await rolesOf(bob)).toEqual(['teacher']);
    await patch(teachers, { op: 'remove', path: `members[value eq "${ada}"]` });
    expect(await rolesOf(ada)).toEqual(['librarian']);
    // Entra ID's remove with a value list: only that member loses the role.
    await patch(teachers, { op: 'Add', path: 'members', value: [{ value: ada }] });
    await patch(teachers, { op: 'Remove', path: 'members', value: [{ value: bob }] });
    expect(await rolesOf(bob)).toEqual([]);
    expect(await rolesOf(ada)).toEqual(['librarian', 'teacher']);

    // The user's SCIM `roles` stay what the IdP sent: the recipe never writes them.
    const got = await request('GET', `/Users/${ada}`);
    expect(got.body.roles).toEqual([{ value: 'librarian' }]);
    // The IdP's PUT replaces its roles; the group's role stays.
    const put = await request('PUT', `/Users/${ada}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@lincoln.edu', roles: [{ value: 'coach' }] },
    });
    expect(put.status).toBe(200);
    expect(await rolesOf(ada)).toEqual(['coach', 'teacher']);
    await request('DELETE', `/Users/${ada}`);
    expect(await rolesOf(ada)).toBeUndefined();
    roles.stop();
  });

  it('follows nested groups, renames and deletion', async () => {
    const { createUser, rolesOf, group, patch, request } = school();
    const bob = (await createUser('bob@lincoln.edu')).id;
    const cy = (await createUser('cy@lincoln.edu')).id;
    const science = await group('Science Department', [cy]);
    const teachers = await group('Teachers of Lincoln High', [bob]);
    expect(await rolesOf(cy)).toEqual([]);

    // Through a nested group: cy is a teacher while Science is in Teachers.
    await patch(teachers, { op: 'add', path: 'members', value: [{ value: science }] });
    expect(await rolesOf(cy)).toEqual(['teacher']);
    await patch(teachers, { op: 'remove', path: `members[value eq "${science}"]` });
    expect(await rolesOf(cy)).toEqual([]);
    await patch(teachers, { op: 'add', path: 'members', value: [{ value: science }] });
    expect(await rolesOf(cy)).toEqual(['teacher']);

    // The role follows the group's name (Okta's path-less rename).
    await patch(teachers, { op: 'replace', value: { id: teachers, displayName: 'Lincoln Staff' } });
    expect([await rolesOf(bob), await rolesOf(cy)]).toEqual([[], []]);
    await patch(teachers, { op: 'replace', path: 'displayName', value: 'Teachers of Lincoln' });
    expect([await rolesOf(bob), await rolesOf(cy)]).toEqual([['teacher'], ['teacher']]);

    expect((await request('DELETE', `/Groups/${teachers}`)).status).toBe(204);
    expect([await rolesOf(bob), await rolesOf(cy)]).toEqual([[], []]);
  });

  it('does not keep roles read across a change: the next read sees the change', async () => {
    const { scim, createUser, rolesOf, group, patch } = school();
    const bob = (await createUser('bob@lincoln.edu')).id;
    const teachers = await group('Teachers of Lincoln High', [bob]);
    // Hold the recipe's read of bob's groups until the change below is committed.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const users = scim.users as { groups: UserLifecycle['groups'] };
    const groupsOf = users.groups;
    users.groups = async (tenant, id) => {
      const read = await groupsOf(tenant, id);
      await held;
      return read;
    };
    const early = rolesOf(bob);
    await new Promise((resolve) => setTimeout(resolve, 10));
    users.groups = groupsOf;
    await patch(teachers, { op: 'remove', path: `members[value eq "${bob}"]` });
    release();
    expect(await early).toEqual(['teacher']); // read before the change, answered as read
    expect(await rolesOf(bob)).toEqual([]); // and not kept
  });

  it('reads at every call without a cache (several instances)', async () => {
    const { createUser, rolesOf, group, roles } = school(false);
    const bob = (await createUser('bob@lincoln.edu')).id;
    roles.stop(); // no events needed
    expect(await rolesOf(bob)).toEqual([]);
    await group('Teachers of Lincoln High', [bob]);
    expect(await rolesOf(bob)).toEqual(['teacher']);
  });
});
