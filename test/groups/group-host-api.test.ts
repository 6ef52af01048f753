import { describe, expect, it } from 'vitest';
import type { GroupMember, ScimEvent } from '../../src/index.js';
import { setup } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

describe('scim.groups, the host API', () => {
  it('adds and removes members through the same service and events; walks members page by page', async () => {
    const { scim, request, createUser } = setup();
    const events: ScimEvent[] = [];
    scim.on((event) => events.push(event));
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await createUser(`host${i}@example.org`)).id);
    const created = await request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Teachers of Lincoln High' },
    });
    const groupId = created.body.id as string;
    const groups = scim.groups;
    if (!groups) throw new Error('the memory store keeps groups');
    const added = await groups.addMembers(
      'tenant-a',
      groupId,
      ids.map((value) => ({ value })),
    );
    expect(added.map((m) => m.value)).toEqual(ids);
    expect(await groups.addMembers('tenant-a', groupId, [{ value: ids[0] as string }])).toEqual([]);
    const walked: GroupMember[] = [];
    for await (const member of groups.members('tenant-a', groupId, 3)) walked.push(member);
    expect(walked.map((m) => m.value)).toEqual([...ids].sort());
    const removed = await groups.removeMembers('tenant-a', groupId, [ids[2] as string, 'nobody']);
    expect(removed).toEqual([{ value: ids[2], type: 'User' }]);
    expect((await groups.get('tenant-a', groupId))?.members).toBeUndefined();
    expect((await groups.of('tenant-a', ids[0] as string)).map((g) => g.value)).toEqual([groupId]);
    expect(events.filter((e) => e.type === 'group.member_added')).toHaveLength(7);
    expect(events.filter((e) => e.type === 'group.member_removed')).toHaveLength(1);
    await expect(groups.addMembers('tenant-a', 'no-such-group', [])).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      groups.addMembers('tenant-a', groupId, [{ value: 'made-up' }]),
    ).rejects.toMatchObject({ status: 400 });
    const none: GroupMember[] = [];
    for await (const member of groups.members('tenant-b', groupId)) none.push(member);
    expect(none).toEqual([]);
  });
});
