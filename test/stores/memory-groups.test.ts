import { describe, expect, it, vi } from 'vitest';
import type { ScimGroup } from '../../src/schema/group-schema.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { TenantGroups } from '../../src/stores/memory/tenant-groups.js';
import { createUserFactory } from '../../src/testing/index.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';

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

describe('MemoryUserStore groups without a whole-list pass', () => {
  it('adds and removes one member, reads without members and lists groupsOf without building the member list', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory();
    const ids: string[] = [];
    for (let i = 0; i < 5_001; i++) {
      const user = users.make();
      await store.create('t', user);
      ids.push(user.id);
    }
    const joiner = ids.pop() as string;
    const groups = store.groups!;
    await groups.create(
      't',
      group,
      ids.map((value) => ({ value })),
    );
    // The one place a whole member list is built (sorted for a full read).
    const whole = vi.spyOn(TenantGroups.prototype, 'sortedMembers');
    await groups.addMembers('t', group.id, [{ value: joiner }]);
    await groups.removeMembers('t', group.id, [joiner, ids[0] as string]);
    const bare = await groups.get('t', group.id, { members: false });
    const of = await groups.groupsOf('t', ids[1] as string);
    const page = await groups.list('t', { startIndex: 1, count: 1, members: false });
    expect(whole).not.toHaveBeenCalled();
    expect(bare).not.toHaveProperty('members');
    expect(bare?.meta.version).toBe('W/"3"');
    expect(of.map((g) => g.value)).toEqual([group.id]);
    expect(page.resources).toEqual([bare]);
    // A full read does build it: the spy can see a whole-list pass.
    const full = await groups.get('t', group.id);
    expect(whole).toHaveBeenCalled();
    expect(full?.members).toHaveLength(4_999);
    whole.mockRestore();
  });

  it('hands out frozen groups: changing a result throws and changes nothing stored', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory();
    const user = users.make();
    await store.create('t', user);
    await store.groups!.create('t', group, [{ value: user.id }]);
    const got = (await store.groups!.get('t', group.id)) as ScimGroup;
    expect(() => {
      got.displayName = 'Changed';
    }).toThrow(TypeError);
    expect(() => got.members!.push({ value: 'x', type: 'User' })).toThrow(TypeError);
    expect((await store.groups!.get('t', group.id))?.displayName).toBe('All staff');
  });
});
