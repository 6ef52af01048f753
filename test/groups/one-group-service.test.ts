import { describe, expect, it } from 'vitest';
import type { GroupStore } from '../../src/contracts/group-store.js';
import { isScimError, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { patchBody, setup } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ENTRA_KEY = 'key-entra';
const STRICT_KEY = 'key-strict';

// One tenant reached by two API keys with different compatibility profiles, on a memory store
// that counts the version conflicts its group writes meet.
function twoProfiles() {
  const store = new MemoryUserStore();
  const groups = store.groups as GroupStore;
  const replace = groups.replace.bind(groups);
  let conflicts = 0;
  (groups as { replace: GroupStore['replace'] }).replace = async (...args) => {
    try {
      return await replace(...args);
    } catch (error) {
      if (isScimError(error) && error.status === 412) conflicts++;
      throw error;
    }
  };
  const service = setup({
    store,
    verifier: staticApiKeys([
      { key: ENTRA_KEY, tenant: 'district', profile: 'entra' },
      { key: STRICT_KEY, tenant: 'district', profile: 'strict' },
    ]),
  });
  return { ...service, conflicts: () => conflicts };
}

describe('one group service for every profile', () => {
  it('serialises two profiles’ concurrent membership PATCHes on one group: nothing lost, no conflict', async () => {
    const { scim, request, createUser, conflicts } = twoProfiles();
    // A listener makes every request a traced one, with its own PATCH context.
    const traced: string[] = [];
    scim.onRequest((event) => traced.push(event.method));
    const ids: string[] = [];
    for (let i = 0; i < 24; i++)
      ids.push((await createUser(`member${i}@example.org`, {}, ENTRA_KEY)).id);
    const created = await request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Teachers of Lincoln High' },
      key: ENTRA_KEY,
    });
    const groupId = created.body.id as string;
    // Each PATCH renames the group and adds a member: a write under the version read, so two
    // writers of one group that do not share a lock meet version conflicts.
    const replies = await Promise.all(
      ids.map((id, i) =>
        request('PATCH', `/Groups/${groupId}`, {
          key: i % 2 === 0 ? ENTRA_KEY : STRICT_KEY,
          body: patchBody(
            { op: i % 2 === 0 ? 'Add' : 'add', path: 'members', value: [{ value: id }] },
            { op: 'replace', path: 'displayName', value: `Teachers ${i}` },
          ),
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(ids.map(() => 204));
    const group = await request('GET', `/Groups/${groupId}`, { key: STRICT_KEY });
    const members = (group.body.members as { value: string }[]).map((m) => m.value).sort();
    expect(members).toEqual([...ids].sort());
    expect(group.body.meta.version).toBe(`W/"${ids.length + 1}"`);
    expect(conflicts()).toBe(0);
    expect(traced.filter((m) => m === 'PATCH')).toHaveLength(ids.length);
  });
});
