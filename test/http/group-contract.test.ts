// The Groups half of the HTTP contract: the same requests answered the same way on every
// adapter target (test/http/harness.ts), with the membership shapes the IdPs send.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import {
  createGroup,
  expectScimError,
  expectScimJson,
  GROUP_SCHEMA,
  groupsOfUser,
  memberIdsOf,
  patchGroup,
  patchOp,
  type Reference,
  ScimClient,
  usersInGroup,
} from './contract-client.js';
import { MOUNT, type RunningServer, targets } from './harness.js';

const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

const scim = createScim({
  store: new MemoryUserStore(),
  verifier: staticApiKeys([
    { key: 'key-district-42', tenant: 'district-42' },
    { key: 'key-district-7', tenant: 'district-7' },
  ]),
  mailer: { sendWelcome: () => Promise.resolve() },
  basePath: MOUNT,
});
afterAll(() => scim.close());

describe.each(targets)('SCIM Groups contract over HTTP on $name', (target) => {
  let server: RunningServer;
  const client = new ScimClient(() => server.url, 'key-district-42');
  const otherTenant = new ScimClient(() => server.url, 'key-district-7');
  // One shared service serves every target, so each target uses its own names.
  const slug = target.name.replace(/[^a-z0-9]/g, '');
  const name = (text: string): string => `${text} ${slug}`;

  /** Creates users named after `local` and returns their ids. */
  async function users(local: string, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const reply = await client.createUser(`${local}${i}.${slug}@example.org`);
      ids.push(String(reply.json?.id));
    }
    return ids;
  }

  /** The number of groups the tenant has whose displayName is `displayName`. */
  async function countByName(scimClient: ScimClient, displayName: string): Promise<number> {
    const filter = encodeURIComponent(`displayName eq "${displayName}"`);
    const reply = await scimClient.send('GET', `/Groups?filter=${filter}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.json?.totalResults as number;
  }

  beforeAll(async () => {
    server = await target.start(scim);
  });
  afterAll(() => server.close());

  it('POST /Groups answers 201 with the group, its members, Location, ETag and the SCIM media type', async () => {
    const [ada] = await users('create', 1);
    const reply = await createGroup(client, name('Lincoln High Teachers'), [ada as string]);
    const group = reply.json ?? {};
    const meta = group.meta as Record<string, unknown>;
    expectScimJson(reply);
    expect(group).toMatchObject({
      schemas: [GROUP_SCHEMA],
      displayName: name('Lincoln High Teachers'),
      members: [{ value: ada, type: 'User', $ref: `${server.url}/Users/${ada}` }],
      meta: { resourceType: 'Group' },
    });
    expect(typeof group.id).toBe('string');
    expect(reply.headers.get('location')).toBe(`${server.url}/Groups/${String(group.id)}`);
    expect(meta.location).toBe(reply.headers.get('location'));
    expect(reply.headers.get('etag')).toBe(meta.version);
  });

  it('POST /Groups accepts application/json too', async () => {
    const reply = await client.send('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: name('Plain JSON') },
      contentType: 'application/json',
    });
    expect(reply.status).toBe(201);
    expectScimJson(reply);
    expect(reply.json?.members).toBeUndefined();
  });

  it('GET /Groups/{id} answers 200 with the group and its ETag, and 304 to a current If-None-Match', async () => {
    const [ada] = await users('read', 1);
    const created = await createGroup(client, name('Read'), [ada as string]);
    const id = String(created.json?.id);
    const etag = created.headers.get('etag') ?? '';
    const reply = await client.send('GET', `/Groups/${id}`);
    expect(reply.status).toBe(200);
    expectScimJson(reply);
    expect(reply.json).toEqual(created.json);
    expect(reply.headers.get('etag')).toBe(etag);
    const cached = await client.send('GET', `/Groups/${id}`, {
      headers: { 'if-none-match': etag },
    });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
  });

  it('GET /Groups honours filter, sortBy, startIndex, count, attributes and excludedAttributes', async () => {
    const [ada] = await users('list', 1);
    const ids: string[] = [];
    for (const letter of ['a', 'b', 'c'])
      ids.push(
        String((await createGroup(client, name(`List ${letter}`), [ada as string])).json?.id),
      );
    const listed = await client.send('GET', '/Groups/');
    expect(listed.status).toBe(200);
    expectScimJson(listed);
    expect(listed.json?.schemas).toEqual([LIST_RESPONSE]);

    const prefix = encodeURIComponent(`displayName sw "List " and displayName ew " ${slug}"`);
    const page = await client.send(
      'GET',
      `/Groups?filter=${prefix}&sortBy=displayName&sortOrder=descending&startIndex=2&count=1`,
    );
    expect(page.json).toMatchObject({ totalResults: 3, itemsPerPage: 1, startIndex: 2 });
    expect((page.json?.Resources as { id: string }[]).map((g) => g.id)).toEqual([ids[1]]);

    // displayName is not case-exact (RFC 7643 §4.2): any case finds the group.
    const exact = encodeURIComponent(`displayName eq "${name('LIST A').toUpperCase()}"`);
    const one = await client.send('GET', `/Groups?filter=${exact}&attributes=displayName`);
    expect(one.json?.Resources).toEqual([
      { schemas: [GROUP_SCHEMA], id: ids[0], displayName: name('List a') },
    ]);

    const lean = await client.send('GET', `/Groups?filter=${prefix}&excludedAttributes=members`);
    const resources = lean.json?.Resources as Record<string, unknown>[];
    expect(resources).toHaveLength(3);
    for (const group of resources) {
      expect(group.members).toBeUndefined();
      expect(group).toMatchObject({
        displayName: expect.any(String),
        meta: { resourceType: 'Group' },
      });
    }
  });

  it('POST /Groups/.search finds the groups that hold a member', async () => {
    const [ada, bob] = await users('search', 2);
    const held = await createGroup(client, name('Search held'), [ada as string, bob as string]);
    await createGroup(client, name('Search other'), [bob as string]);
    const reply = await client.send('POST', '/Groups/.search', {
      body: {
        schemas: [SEARCH_REQUEST],
        filter: `members[value eq "${ada}"]`,
        attributes: ['displayName'],
        startIndex: 1,
        count: 10,
      },
    });
    expect(reply.status).toBe(200);
    expectScimJson(reply);
    expect(reply.json).toMatchObject({ schemas: [LIST_RESPONSE], totalResults: 1 });
    expect(reply.json?.Resources).toEqual([
      { schemas: [GROUP_SCHEMA], id: held.json?.id, displayName: name('Search held') },
    ]);
  });

  it('PUT /Groups/{id} replaces the name and the whole member list, and changes the ETag', async () => {
    const [ada, bob] = await users('put', 2);
    const created = await createGroup(client, name('Put'), [ada as string]);
    const id = String(created.json?.id);
    const reply = await client.send('PUT', `/Groups/${id}`, {
      body: {
        schemas: [GROUP_SCHEMA],
        displayName: name('Put renamed'),
        members: [{ value: bob }],
      },
      headers: { 'if-match': created.headers.get('etag') ?? '' },
    });
    expect(reply.status).toBe(200);
    expectScimJson(reply);
    expect(reply.json).toMatchObject({
      displayName: name('Put renamed'),
      members: [{ value: bob }],
    });
    expect(reply.headers.get('etag')).not.toBe(created.headers.get('etag'));
    expect(await memberIdsOf(client, id)).toEqual([bob]);
  });

  it('PATCH add of one member and of many answers 204 with the new ETag', async () => {
    const [ada, bob, cy] = await users('add', 3);
    const created = await createGroup(client, name('Add'));
    const id = String(created.json?.id);
    const one = await patchGroup(client, id, {
      op: 'add',
      path: 'members',
      value: [{ value: ada }],
    });
    expect(one.text).toBe('');
    expect(one.headers.get('etag')).not.toBe(created.headers.get('etag'));
    const many = await patchGroup(client, id, {
      op: 'add',
      path: 'members',
      value: [{ value: bob }, { value: cy }, { value: ada }],
    });
    expect(many.headers.get('etag')).not.toBe(one.headers.get('etag'));
    expect(await memberIdsOf(client, id)).toEqual([ada, bob, cy].sort());
    // The ETag the PATCH answered is the group's current version.
    const read = await client.send('GET', `/Groups/${id}`);
    expect(read.headers.get('etag')).toBe(many.headers.get('etag'));
  });

  it("Entra's remove with a value array takes out only those members, never the whole group", async () => {
    const ids = await users('entra', 3);
    const id = String((await createGroup(client, name('Entra'), ids)).json?.id);
    await patchGroup(client, id, {
      op: 'Remove',
      path: 'members',
      value: [{ $ref: null, value: ids[1] }],
    });
    expect(await memberIdsOf(client, id)).toEqual([ids[0], ids[2]].sort());
  });

  it('remove of members[value eq "id"] takes out that member', async () => {
    const [ada, bob] = await users('filtered', 2);
    const id = String(
      (await createGroup(client, name('Filtered'), [ada as string, bob as string])).json?.id,
    );
    await patchGroup(client, id, { op: 'remove', path: `members[value eq "${ada}"]` });
    expect(await memberIdsOf(client, id)).toEqual([bob]);
  });

  it("Okta's replace of the whole member list, then its path-less rename that keeps the members", async () => {
    const [ada, bob, cy] = await users('okta', 3);
    const id = String(
      (await createGroup(client, name('Okta'), [ada as string, bob as string])).json?.id,
    );
    await patchGroup(client, id, {
      op: 'replace',
      path: 'members',
      value: [{ value: bob }, { value: cy }],
    });
    expect(await memberIdsOf(client, id)).toEqual([bob, cy].sort());
    await patchGroup(client, id, {
      op: 'replace',
      value: { id, displayName: name('Okta renamed') },
    });
    const read = await client.send('GET', `/Groups/${id}`);
    expect(read.json?.displayName).toBe(name('Okta renamed'));
    expect(await memberIdsOf(client, id)).toEqual([bob, cy].sort());
  });

  it('PATCH with attributes answers 200 with the group as asked', async () => {
    const [ada] = await users('projected', 1);
    const id = String((await createGroup(client, name('Projected'))).json?.id);
    const reply = await client.send('PATCH', `/Groups/${id}?attributes=displayName,members`, {
      body: patchOp({ op: 'add', path: 'members', value: [{ value: ada }] }),
    });
    expect(reply.status).toBe(200);
    expectScimJson(reply);
    expect(reply.json).toMatchObject({
      id,
      displayName: name('Projected'),
      members: [{ value: ada, type: 'User' }],
    });
    expect(reply.headers.get('etag')).toMatch(/^W\/"/);
  });

  it('a stale If-Match answers 412 to PATCH, PUT and DELETE and changes nothing', async () => {
    const [ada, bob] = await users('stale', 2);
    const created = await createGroup(client, name('Stale'), [ada as string]);
    const id = String(created.json?.id);
    const stale = created.headers.get('etag') ?? '';
    const current = await patchGroup(client, id, {
      op: 'replace',
      path: 'displayName',
      value: name('Stale current'),
    });
    const headers = { 'if-match': stale };
    expectScimError(
      await client.send('PATCH', `/Groups/${id}`, {
        headers,
        body: patchOp({ op: 'add', path: 'members', value: [{ value: bob }] }),
      }),
      412,
    );
    expectScimError(
      await client.send('PUT', `/Groups/${id}`, {
        headers,
        body: { schemas: [GROUP_SCHEMA], displayName: name('Stale put') },
      }),
      412,
    );
    expectScimError(await client.send('DELETE', `/Groups/${id}`, { headers }), 412);
    const read = await client.send('GET', `/Groups/${id}`);
    expect(read.json?.displayName).toBe(name('Stale current'));
    expect(read.headers.get('etag')).toBe(current.headers.get('etag'));
    expect(await memberIdsOf(client, id)).toEqual([ada]);
  });

  it('DELETE /Groups/{id} answers 204 with no body, then 404, and the group leaves its members', async () => {
    const [ada] = await users('delete', 1);
    const id = String((await createGroup(client, name('Delete'), [ada as string])).json?.id);
    expect((await groupsOfUser(client, ada as string)).map((g) => g.value)).toEqual([id]);
    const reply = await client.send('DELETE', `/Groups/${id}`);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expectScimError(await client.send('GET', `/Groups/${id}`), 404);
    expectScimError(await client.send('DELETE', `/Groups/${id}`), 404);
    expect(await groupsOfUser(client, ada as string)).toEqual([]);
    expect(await usersInGroup(client, id)).toEqual([]);
  });

  it('an unknown member is 400 invalidValue naming it, and nothing of the request is written', async () => {
    const [ada] = await users('unknown', 1);
    const refused = await client.send('POST', '/Groups', {
      body: {
        schemas: [GROUP_SCHEMA],
        displayName: name('Unknown member'),
        members: [{ value: ada }, { value: 'no-such-id' }],
      },
    });
    expectScimError(refused, 400, 'invalidValue');
    expect(refused.json?.detail).toContain('no-such-id');
    expect(await countByName(client, name('Unknown member'))).toBe(0);

    const created = await createGroup(client, name('Known'), [ada as string]);
    const id = String(created.json?.id);
    const patch = await client.send('PATCH', `/Groups/${id}`, {
      body: patchOp(
        { op: 'replace', path: 'displayName', value: name('Known renamed') },
        { op: 'add', path: 'members', value: [{ value: 'no-such-id' }] },
      ),
    });
    expectScimError(patch, 400, 'invalidValue');
    expect(patch.json?.detail).toContain('no-such-id');
    const read = await client.send('GET', `/Groups/${id}`);
    expect(read.json?.displayName).toBe(name('Known'));
    expect(read.headers.get('etag')).toBe(created.headers.get('etag'));
    expect(await memberIdsOf(client, id)).toEqual([ada]);
  });

  it('a group without displayName is 400 and is not created', async () => {
    const before = (await client.send('GET', '/Groups?count=0')).json?.totalResults;
    const reply = await client.send('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], members: [] },
    });
    expectScimError(reply, 400, 'invalidValue');
    expect(reply.json?.detail).toContain('displayName');
    expect((await client.send('GET', '/Groups?count=0')).json?.totalResults).toBe(before);
  });

  it("keeps one tenant's groups invisible to another, and its users out of another's groups", async () => {
    const [ada] = await users('tenant', 1);
    const created = await createGroup(client, name('Private'), [ada as string]);
    const id = String(created.json?.id);
    expectScimError(await otherTenant.send('GET', `/Groups/${id}`), 404);
    expectScimError(
      await otherTenant.send('PATCH', `/Groups/${id}`, {
        body: patchOp({ op: 'replace', path: 'displayName', value: 'Taken' }),
      }),
      404,
    );
    expectScimError(
      await otherTenant.send('PUT', `/Groups/${id}`, {
        body: { schemas: [GROUP_SCHEMA], displayName: 'Taken' },
      }),
      404,
    );
    expectScimError(await otherTenant.send('DELETE', `/Groups/${id}`), 404);
    expect(await countByName(otherTenant, name('Private'))).toBe(0);
    const theirs = await otherTenant.send('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: name('Theirs'), members: [{ value: ada }] },
    });
    expectScimError(theirs, 400, 'invalidValue');
    expect(theirs.json?.detail).toContain(String(ada));
    const read = await client.send('GET', `/Groups/${id}`);
    expect(read.json?.displayName).toBe(name('Private'));
    expect(read.headers.get('etag')).toBe(created.headers.get('etag'));
  });

  it("a user's groups follow membership changes, direct and through a nested group, and filter the users", async () => {
    const [ada, bob] = await users('groups', 2);
    const child = String((await createGroup(client, name('Child'), [ada as string])).json?.id);
    const parent = String((await createGroup(client, name('Parent'), [child])).json?.id);
    const adaGroups = await groupsOfUser(client, ada as string);
    // Ids are time-ordered, and a user's groups come in ascending id order.
    expect(adaGroups).toEqual([
      {
        value: child,
        $ref: `${server.url}/Groups/${child}`,
        display: name('Child'),
        type: 'direct',
      },
      {
        value: parent,
        $ref: `${server.url}/Groups/${parent}`,
        display: name('Parent'),
        type: 'indirect',
      },
    ]);
    expect(await groupsOfUser(client, bob as string)).toEqual([]);
    expect(await usersInGroup(client, parent)).toEqual([ada]);

    await patchGroup(client, parent, { op: 'add', path: 'members', value: [{ value: bob }] });
    const bobGroups: Reference[] = await groupsOfUser(client, bob as string);
    expect(bobGroups.map((g) => [g.value, g.type])).toEqual([[parent, 'direct']]);
    expect(await usersInGroup(client, parent)).toEqual([ada, bob].sort());
    expect(await usersInGroup(client, child)).toEqual([ada]);

    await patchGroup(client, child, { op: 'replace', path: 'displayName', value: name('Kids') });
    expect(
      (await groupsOfUser(client, ada as string)).find((g) => g.value === child)?.display,
    ).toBe(name('Kids'));

    await patchGroup(client, parent, { op: 'remove', path: `members[value eq "${child}"]` });
    expect((await groupsOfUser(client, ada as string)).map((g) => g.value)).toEqual([child]);
    expect(await usersInGroup(client, parent)).toEqual([bob]);
  });
});
