import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScimEvent, UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { ORIGIN, BASE, KEY_B, patchBody, setup } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

function groupsOn(store: UserStore) {
  const service = setup({ store });
  const events: ScimEvent[] = [];
  service.scim.on((event) => events.push(event));
  async function createGroup(displayName: string, members: string[] = [], key?: string) {
    const reply = await service.request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName, members: members.map((value) => ({ value })) },
      ...(key === undefined ? {} : { key }),
    });
    if (reply.status !== 201) throw new Error(`create failed: ${JSON.stringify(reply.body)}`);
    return reply.body;
  }
  async function users(n: number, prefix = 'u') {
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push((await service.createUser(`${prefix}${i}@example.org`)).id);
    return ids;
  }
  async function memberIds(id: string) {
    const reply = await service.request('GET', `/Groups/${id}`);
    return ((reply.body.members ?? []) as { value: string }[]).map((m) => m.value).sort();
  }
  return { ...service, events, createGroup, users, memberIds };
}

describe.each(everyStore)('Groups over HTTP, $name store', ({ open }) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  }, 120_000);
  afterAll(async () => opened?.close());
  const on = () => groupsOn(opened.store);

  it('POST, GET, list with a filter, PUT, DELETE; ETags and Location', async () => {
    const { request, createGroup, users } = on();
    const [u1, u2] = await users(2, 'crud');
    const group = await createGroup('Lincoln High Teachers', [u1 as string]);
    expect(group).toMatchObject({
      schemas: [GROUP_SCHEMA],
      displayName: 'Lincoln High Teachers',
      members: [{ value: u1, type: 'User', $ref: `${ORIGIN}${BASE}/Users/${u1}` }],
      meta: {
        resourceType: 'Group',
        version: 'W/"1"',
        location: `${ORIGIN}${BASE}/Groups/${group.id}`,
      },
    });
    const got = await request('GET', `/Groups/${group.id}`);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe('W/"1"');
    expect(
      (await request('GET', `/Groups/${group.id}`, { headers: { 'if-none-match': 'W/"1"' } }))
        .status,
    ).toBe(304);
    const list = await request('GET', '/Groups', {
      query: `filter=${encodeURIComponent('displayName eq "lincoln high teachers"')}&excludedAttributes=members`,
    });
    expect(list.body.totalResults).toBe(1);
    expect(list.body.Resources[0].members).toBeUndefined();
    const search = await request('POST', '/Groups/.search', {
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: `members[value eq "${u1}"]`,
        attributes: ['displayName'],
      },
    });
    expect(search.body.Resources).toEqual([
      { schemas: [GROUP_SCHEMA], id: group.id, displayName: 'Lincoln High Teachers' },
    ]);
    const put = await request('PUT', `/Groups/${group.id}`, {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Staff', members: [{ value: u2 }] },
      headers: { 'if-match': 'W/"1"' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ displayName: 'Staff', members: [{ value: u2 }] });
    const stale = await request('PUT', `/Groups/${group.id}`, {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Again' },
      headers: { 'if-match': 'W/"1"' },
    });
    expect(stale.status).toBe(412);
    expect((await request('DELETE', `/Groups/${group.id}`)).status).toBe(204);
    expect((await request('GET', `/Groups/${group.id}`)).status).toBe(404);
  });

  it('displayName is not unique: two groups may share one', async () => {
    const { createGroup } = on();
    const a = await createGroup('Same name');
    const b = await createGroup('Same name');
    expect(a.id).not.toBe(b.id);
  });

  it('an unknown or other-tenant member is 400 invalidValue naming it, and nothing is written', async () => {
    const { request, createGroup, users, createUser, memberIds } = on();
    const [mine] = await users(1, 'integrity');
    const theirs = (await createUser('theirs@example.org', {}, KEY_B)).id as string;
    for (const id of ['made-up-id', theirs]) {
      const post = await request('POST', '/Groups', {
        body: { schemas: [GROUP_SCHEMA], displayName: `Refused ${id}`, members: [{ value: id }] },
      });
      expect(post.status).toBe(400);
      expect(post.body).toMatchObject({ scimType: 'invalidValue' });
      expect(post.body.detail).toContain(id);
    }
    const listed = await request('GET', '/Groups', { query: 'count=100' });
    const names = listed.body.Resources.map((g: { displayName: string }) => g.displayName);
    expect(names.filter((n: string) => n.startsWith('Refused'))).toEqual([]);
    const group = await createGroup('Integrity', [mine as string]);
    const patch = await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody(
        { op: 'replace', path: 'displayName', value: 'Renamed' },
        { op: 'add', path: 'members', value: [{ value: theirs }] },
      ),
    });
    expect(patch.status).toBe(400);
    expect(patch.body.detail).toContain(theirs);
    const after = await request('GET', `/Groups/${group.id}`);
    expect(after.body.displayName).toBe('Integrity');
    expect(after.body.meta.version).toBe('W/"1"');
    expect(await memberIds(group.id)).toEqual([mine]);
  });

  it("Entra's remove with a value list takes out only those members; one unassignment never empties the group", async () => {
    const { request, createGroup, users, memberIds } = on();
    const ids = await users(3, 'entra');
    const group = await createGroup('Entra', ids);
    const reply = await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody({ op: 'Remove', path: 'members', value: [{ $ref: null, value: ids[1] }] }),
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.etag).toBe('W/"2"');
    expect(await memberIds(group.id)).toEqual([ids[0], ids[2]].sort());
  });

  it('a remove whose filter matches no member is a successful no-op; an empty group has no members', async () => {
    const { request, createGroup, users } = on();
    const [u] = await users(1, 'noop');
    const group = await createGroup('No-op', [u as string]);
    const miss = await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody({ op: 'remove', path: 'members[value eq "nobody"]' }),
    });
    expect(miss.status).toBe(204);
    expect(miss.headers.etag).toBe('W/"1"');
    await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody({ op: 'remove', path: `members[value eq "${u}"]` }),
    });
    const empty = await request('GET', `/Groups/${group.id}`);
    expect(empty.body.members).toBeUndefined();
    expect(empty.body.meta.version).toBe('W/"2"');
  });

  it('rename and member change in one PATCH are one atomic write; a stale If-Match changes nothing', async () => {
    const { request, createGroup, users, memberIds, events } = on();
    const [a, b] = await users(2, 'atomic');
    const group = await createGroup('Before', [a as string]);
    const stale = await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody(
        { op: 'replace', path: 'displayName', value: 'After' },
        { op: 'add', path: 'members', value: [{ value: b }] },
      ),
      headers: { 'if-match': 'W/"7"' },
    });
    expect(stale.status).toBe(412);
    expect(await memberIds(group.id)).toEqual([a]);
    events.length = 0;
    const ok = await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody(
        { op: 'replace', path: 'displayName', value: 'After' },
        { op: 'add', path: 'members', value: [{ value: b }] },
        { op: 'remove', path: `members[value eq "${a}"]` },
      ),
      headers: { 'if-match': 'W/"1"' },
      query: 'attributes=displayName,members',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ displayName: 'After', members: [{ value: b }] });
    expect(ok.headers.etag).toBe('W/"2"');
    expect(events.map((e) => e.type)).toEqual([
      'group.updated',
      'group.member_removed',
      'group.member_added',
    ]);
    const updated = events[0];
    expect(updated?.type === 'group.updated' && updated.changed).toEqual(['displayName']);
  });

  it("Okta's replace of the whole list, and a path-less replace of displayName", async () => {
    const { request, createGroup, users, memberIds } = on();
    const [a, b, c] = await users(3, 'okta');
    const group = await createGroup('Okta', [a as string, b as string]);
    await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody({ op: 'replace', path: 'members', value: [{ value: b }, { value: c }] }),
    });
    expect(await memberIds(group.id)).toEqual([b, c].sort());
    await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody({ op: 'replace', value: { id: group.id, displayName: 'Okta Renamed' } }),
    });
    const got = await request('GET', `/Groups/${group.id}`);
    expect(got.body.displayName).toBe('Okta Renamed');
    expect(await memberIds(group.id)).toEqual([b, c].sort());
  });

  it('a filter on members that needs the list (display) still works', async () => {
    const { request, createGroup, users, memberIds } = on();
    const [a, b] = await users(2, 'display');
    const group = await createGroup('Display', [a as string, b as string]);
    const reply = await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody({ op: 'remove', path: `members[value eq "${a}" and type eq "User"]` }),
    });
    expect(reply.status).toBe(204);
    expect(await memberIds(group.id)).toEqual([b]);
  });

  it('deleting a member user removes it from the group', async () => {
    const { request, createGroup, users, memberIds } = on();
    const [a, b] = await users(2, 'cascade');
    const group = await createGroup('Cascade', [a as string, b as string]);
    expect((await request('DELETE', `/Users/${a}`)).status).toBe(204);
    expect(await memberIds(group.id)).toEqual([b]);
  });

  it('two instances over one store: concurrent membership PATCHes without If-Match all land', async () => {
    const one = on();
    const two = groupsOn(opened.store);
    const ids = await one.users(20, 'race');
    const group = await one.createGroup('Race');
    const replies = await Promise.all(
      ids.map((id, i) =>
        (i % 2 === 0 ? one : two).request('PATCH', `/Groups/${group.id}`, {
          body: patchBody({ op: 'add', path: 'members', value: [{ value: id }] }),
        }),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(ids.map(() => 204));
    expect(await one.memberIds(group.id)).toEqual([...ids].sort());
  });
});

describe('Groups and the store', () => {
  it('a GET or list with excludedAttributes=members asks the store for no member; a one-member PATCH reads no member list', async () => {
    const store = new MemoryUserStore();
    const groups = store.groups;
    const reads: (boolean | undefined)[] = [];
    const get = groups.get.bind(groups);
    groups.get = (tenant, id, options) => {
      reads.push(options?.members);
      return get(tenant, id, options);
    };
    const list = groups.list.bind(groups);
    groups.list = (tenant, query) => {
      reads.push(query.members);
      return list(tenant, query);
    };
    const { request, createGroup, users } = groupsOn(store);
    const [a, b] = await users(2, 'reads');
    const group = await createGroup('Reads', [a as string]);
    reads.length = 0;
    await request('GET', `/Groups/${group.id}`, { query: 'excludedAttributes=members' });
    await request('GET', `/Groups/${group.id}`, { query: 'attributes=displayName' });
    await request('GET', '/Groups', { query: 'excludedAttributes=members' });
    await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody({ op: 'add', path: 'members', value: [{ value: b }] }),
    });
    await request('PATCH', `/Groups/${group.id}`, {
      body: patchBody(
        { op: 'replace', path: 'displayName', value: 'Renamed' },
        { op: 'remove', path: `members[value eq "${a}"]` },
      ),
    });
    expect(reads.every((members) => members === false)).toBe(true);
    expect(reads.length).toBeGreaterThan(0);
  });

  it('a store without groups keeps /Groups at 501 and discovery without Group', async () => {
    const store = new MemoryUserStore();
    const plain: UserStore = {
      capabilities: store.capabilities,
      create: store.create.bind(store),
      get: store.get.bind(store),
      replace: store.replace.bind(store),
      delete: store.delete.bind(store),
      list: store.list.bind(store),
      // The harness's mailer sends from the log, through the subscribers' state.
      ...(store.events === undefined ? {} : { events: store.events }),
      subscriptions: store.subscriptions,
    };
    const { request } = setup({ store: plain });
    expect((await request('GET', '/Groups')).status).toBe(501);
    const types = await request('GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: { name: string }) => t.name)).toEqual(['User']);
    const schemas = await request('GET', '/Schemas');
    expect(schemas.body.Resources.map((s: { id: string }) => s.id)).not.toContain(GROUP_SCHEMA);
  });

  it('discovery lists Group when the store keeps groups', async () => {
    const { request } = setup();
    const types = await request('GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: { name: string }) => t.name)).toEqual(['User', 'Group']);
    const group = await request('GET', '/ResourceTypes/Group');
    expect(group.body).toMatchObject({ endpoint: '/Groups', schema: GROUP_SCHEMA });
    expect((await request('GET', `/Schemas/${GROUP_SCHEMA}`)).status).toBe(200);
  });
});
