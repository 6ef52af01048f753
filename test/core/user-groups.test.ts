import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GroupStore, UserStore } from '../../src/index.js';
import type { ScimGroup } from '../../src/schema/group-schema.js';
import { parseFilter } from '../../src/filter/index.js';
import { everyStore } from './every-store.js';
import { ORIGIN, BASE, KEY_B, patchBody, setup, USER_SCHEMA } from './harness.js';
import { GROUP_SCHEMA } from '../../src/schema/urns.js';

const GROUPS_URL = `${ORIGIN}${BASE}/Groups`;
const at = new Date().toISOString();
let sequence = 0;

function group(displayName: string): ScimGroup {
  sequence += 1;
  return {
    schemas: [GROUP_SCHEMA],
    id: `grp-${String(sequence).padStart(4, '0')}-${Math.random().toString(36).slice(2, 8)}`,
    displayName,
    meta: { resourceType: 'Group', created: at, lastModified: at, version: 'W/"1"' },
  };
}

const entry = (g: ScimGroup, type: 'direct' | 'indirect') => ({
  value: g.id,
  $ref: `${GROUPS_URL}/${g.id}`,
  display: g.displayName,
  type,
});

describe.each(everyStore)("a user's groups on the $name store", ({ open }) => {
  let close: () => Promise<void>;
  let store: UserStore;
  let groups: GroupStore;
  let h: ReturnType<typeof setup>;
  // ada is in Teachers, which is in Staff; bob is in Staff; cy is in no group.
  let ada: string;
  let bob: string;
  let cy: string;
  const teachers = group('Teachers of Lincoln High');
  const staff = group('All staff');
  const gone = group('Soon deleted');

  beforeAll(async () => {
    const opened = await open();
    close = () => opened.close();
    store = opened.store;
    groups = store.groups as GroupStore;
    h = setup({ store, onError: () => undefined });
    ada = (await h.createUser('ada@example.org')).id;
    bob = (await h.createUser('bob@example.org')).id;
    cy = (await h.createUser('cy@example.org')).id;
    await groups.create('tenant-a', teachers, [{ value: ada }]);
    await groups.create('tenant-a', staff, [{ value: teachers.id }, { value: bob }]);
    await groups.create('tenant-a', gone, [{ value: ada }]);
  }, 120_000);
  afterAll(() => close());

  const ids = async (filter: string) => {
    const reply = await h.request('GET', '/Users', {
      query: `filter=${encodeURIComponent(filter)}`,
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return (reply.body.Resources as { id: string }[]).map((u) => u.id);
  };

  it('shows direct and nested groups on GET, with their URL, name and type', async () => {
    const reply = await h.request('GET', `/Users/${ada}`);
    expect(reply.status).toBe(200);
    expect(reply.body.groups).toEqual(
      [entry(teachers, 'direct'), entry(staff, 'indirect'), entry(gone, 'direct')].sort((a, b) =>
        a.value < b.value ? -1 : 1,
      ),
    );
    expect(Object.keys(reply.body).at(-1)).toBe('meta');
    expect((await h.request('GET', `/Users/${bob}`)).body.groups).toEqual([entry(staff, 'direct')]);
  });

  it('leaves groups out for a user in no group, and never stores them', async () => {
    expect((await h.request('GET', `/Users/${cy}`)).body).not.toHaveProperty('groups');
    expect(await store.get('tenant-a', ada)).not.toHaveProperty('groups');
  });

  it('shows groups on list pages, .search and the answers to writes', async () => {
    const page = await h.request('GET', '/Users', { query: 'count=10' });
    const byId = new Map(page.body.Resources.map((u: { id: string }) => [u.id, u]));
    expect((byId.get(bob) as { groups: unknown }).groups).toEqual([entry(staff, 'direct')]);
    expect(byId.get(cy)).not.toHaveProperty('groups');
    const one = await h.request('GET', '/Users', { query: `filter=id eq "${bob}"` });
    expect(one.body.Resources[0].groups).toEqual([entry(staff, 'direct')]);
    const search = await h.request('POST', '/Users/.search', {
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: `id eq "${bob}"`,
        attributes: ['groups.display'],
      },
    });
    expect(search.body.Resources[0].groups).toEqual([{ display: staff.displayName }]);
    const patched = await h.request('PATCH', `/Users/${bob}`, {
      body: patchBody({ op: 'replace', path: 'title', value: 'Librarian' }),
    });
    expect(patched.body.groups).toEqual([entry(staff, 'direct')]);
    const put = await h.request('PUT', `/Users/${bob}`, {
      body: { schemas: [USER_SCHEMA], userName: 'bob@example.org', groups: [{ value: 'x' }] },
    });
    expect(put.status).toBe(200);
    expect(put.body.groups).toEqual([entry(staff, 'direct')]);
    // The client's groups are not stored: a store hands over only the groups it read.
    const carried = (await store.get('tenant-a', bob))?.groups;
    if (carried !== undefined)
      expect(carried).toEqual([{ value: staff.id, display: staff.displayName, type: 'direct' }]);
    const refused = await h.request('PATCH', `/Users/${bob}`, {
      body: patchBody({ op: 'add', path: 'groups', value: [{ value: teachers.id }] }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.scimType).toBe('mutability');
    expect((await h.request('GET', `/Users/${bob}`)).body.groups).toEqual([entry(staff, 'direct')]);
  });

  it('projects groups, and does not ask the store for them when the projection drops them', async () => {
    // A store that hands bob's groups over with bob (his group is in none) is not asked.
    const carries = (await store.get('tenant-a', bob))?.groups !== undefined;
    const spy = vi.spyOn(groups, 'groupsOfMembers');
    try {
      const only = await h.request('GET', `/Users/${bob}`, { query: 'attributes=groups' });
      expect(only.body.groups).toEqual([entry(staff, 'direct')]);
      expect(only.body).not.toHaveProperty('name');
      const display = await h.request('GET', `/Users/${bob}`, {
        query: 'attributes=groups.display',
      });
      expect(display.body.groups).toEqual([{ display: staff.displayName }]);
      expect(spy).toHaveBeenCalledTimes(carries ? 0 : 2);
      spy.mockClear();
      const excluded = await h.request('GET', `/Users/${bob}`, {
        query: 'excludedAttributes=groups',
      });
      expect(excluded.status).toBe(200);
      expect(excluded.body).not.toHaveProperty('groups');
      const other = await h.request('GET', '/Users', { query: 'attributes=userName' });
      expect(other.body.Resources.length).toBeGreaterThan(0);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('reads a page of users with one batch read of the group store, not one per user', async () => {
    const batch = vi.spyOn(groups, 'groupsOfMembers');
    const single = vi.spyOn(groups, 'groupsOf');
    try {
      const page = await h.request('GET', '/Users', { query: 'count=10' });
      expect(page.body.Resources).toHaveLength(3);
      expect(batch).toHaveBeenCalledTimes(1);
      expect(single).not.toHaveBeenCalled();
    } finally {
      batch.mockRestore();
      single.mockRestore();
    }
  });

  it('filters users by group, directly or through nested groups', async () => {
    expect(await ids(`groups[value eq "${teachers.id}"]`)).toEqual([ada]);
    expect((await ids(`groups.value eq "${staff.id}"`)).sort()).toEqual([ada, bob].sort());
    expect(await ids(`groups.value eq "${staff.id}" and userName eq "bob@example.org"`)).toEqual([
      bob,
    ]);
    expect((await ids(`groups.value eq "${teachers.id}" or userName sw "cy"`)).sort()).toEqual(
      [ada, cy].sort(),
    );
    expect(await ids(`not (groups.value eq "${staff.id}")`)).toEqual([cy]);
    expect(await ids(`groups.value eq "${staff.id.toUpperCase()}"`)).toEqual([]);
    expect(await ids('groups.value eq "no-such-group"')).toEqual([]);
    expect(await ids(`groups.value eq "${ada}"`)).toEqual([]);
  });

  it('answers every form of a groups filter as the attribute shows the groups', async () => {
    const supported = store.capabilities?.supportsFilter;
    // [filter, users it finds]; ada: Teachers (direct), Staff (indirect), Soon deleted (direct).
    const cases: [string, string[]][] = [
      ['groups pr', [ada, bob]],
      ['groups.value pr', [ada, bob]],
      ['not (groups pr)', [cy]],
      ['groups eq null', [cy]],
      [`groups eq "${teachers.id}"`, [ada]],
      [`groups.value ne "${staff.id}"`, [ada, cy]],
      ['groups.display eq "all STAFF"', [ada, bob]],
      ['groups.display sw "teachers"', [ada]],
      ['groups.display co "of lincoln"', [ada]],
      [`groups[display eq "All staff" and value eq "${staff.id}"]`, [ada, bob]],
      [`groups[display eq "All staff" or value eq "${teachers.id}"]`, [ada, bob]],
      [`groups[not (value eq "${staff.id}")]`, [ada]],
      ['groups[display pr]', [ada, bob]],
      [`groups[value eq "${staff.id}"] and groups[value eq "${teachers.id}"]`, [ada]],
    ];
    for (const [filter, expected] of cases) {
      expect((await ids(filter)).sort(), filter).toEqual([...expected].sort());
    }
    // `type` is answered by the stores that can, else refused as valid but unanswerable.
    const typed: [string, string[]][] = [
      ['groups.type eq "indirect"', [ada]],
      [`groups[value eq "${staff.id}" and type eq "direct"]`, [bob]],
    ];
    for (const [filter, expected] of typed) {
      const reply = await h.request('GET', '/Users', {
        query: `filter=${encodeURIComponent(filter)}`,
      });
      if (supported && !supported(parseFilter(filter))) {
        expect(reply.status, filter).toBe(400);
        expect(reply.body.scimType).toBe('invalidFilter');
      } else {
        expect(reply.status, filter).toBe(200);
        expect(reply.body.Resources.map((u: { id: string }) => u.id).sort(), filter).toEqual(
          expected,
        );
      }
    }
  });

  it("finds nothing by another tenant's group", async () => {
    const theirs = group('Theirs');
    const them = (await h.createUser('them@example.org', {}, KEY_B)).id;
    await groups.create('tenant-b', theirs, [{ value: them }]);
    expect(await ids(`groups.value eq "${theirs.id}"`)).toEqual([]);
    const reply = await h.request('GET', '/Users', {
      key: KEY_B,
      query: `filter=${encodeURIComponent(`groups.value eq "${theirs.id}"`)}`,
    });
    expect(reply.body.Resources.map((u: { id: string }) => u.id)).toEqual([them]);
  });

  it('answers a groups.$ref filter with 400 invalidFilter', async () => {
    const reply = await h.request('GET', '/Users', {
      query: `filter=${encodeURIComponent(`groups.$ref eq "${GROUPS_URL}/${staff.id}"`)}`,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidFilter');
  });

  it('refuses to sort by groups', async () => {
    for (const sortBy of ['groups', 'groups.display']) {
      const reply = await h.request('GET', '/Users', { query: `sortBy=${sortBy}` });
      expect(reply.status).toBe(400);
      expect(reply.body.scimType).toBe('invalidValue');
    }
  });

  it('writes, records and gives the host no groups a store handed over with a user', async () => {
    const heard: unknown[] = [];
    const off = h.scim.on((event) => {
      if (event.type === 'user.updated') heard.push(event.before, event.after);
    });
    try {
      const patched = await h.request('PATCH', `/Users/${bob}`, {
        body: patchBody({ op: 'replace', path: 'nickName', value: 'Bobby' }),
      });
      expect(patched.status).toBe(200);
      expect(patched.body.groups).toEqual([entry(staff, 'direct')]);
      const unchanged = await h.request('PATCH', `/Users/${bob}`, {
        body: patchBody({ op: 'replace', path: 'nickName', value: 'Bobby' }),
      });
      expect(unchanged.body.groups).toEqual([entry(staff, 'direct')]);
    } finally {
      off();
    }
    expect(heard).toHaveLength(2);
    for (const user of heard) expect(user).not.toHaveProperty('groups');
    const page = await store.events?.list({
      tenant: 'tenant-a',
      types: ['user.updated'],
      limit: 1000,
    });
    const last = page?.events.at(-1);
    if (last) {
      expect(last.data.changed).toEqual(['nickName']);
      expect(last.data.resource).not.toHaveProperty('groups');
    }
    expect(await h.scim.users.get('tenant-a', bob)).not.toHaveProperty('groups');
  });

  it('gives the host its users groups, and null for no such user', async () => {
    expect(await h.scim.users.groups('tenant-a', bob)).toEqual([
      { value: staff.id, display: staff.displayName, type: 'direct' },
    ]);
    expect(await h.scim.users.groups('tenant-a', cy)).toEqual([]);
    expect(await h.scim.users.groups('tenant-a', 'nobody')).toBeNull();
    expect(await h.scim.users.groups('tenant-b', ada)).toBeNull();
  });

  it('drops a deleted group from the user and from the filter', async () => {
    expect(await ids(`groups.value eq "${gone.id}"`)).toEqual([ada]);
    await groups.delete('tenant-a', gone.id);
    const reply = await h.request('GET', `/Users/${ada}`);
    expect(reply.body.groups.map((g: { value: string }) => g.value)).not.toContain(gone.id);
    expect(await ids(`groups.value eq "${gone.id}"`)).toEqual([]);
  });
});
