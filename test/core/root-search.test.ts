// Search at the root (RFC 7644 §3.4.3): GET /?filter=... and POST /.search across every
// resource type served. The oracle is each type's own endpoint: the root answers the types'
// answers one after the other, in the order /ResourceTypes lists them, so these tests hold for
// every type served (Users and Groups here; a host's types when they are served), on every store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyStore } from './every-store.js';
import { BASE, KEY_B, ORIGIN, setup, type Reply } from './harness.js';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
/**
 * The groups served beside the users: a displayName and the indexes of the groups (created
 * before it) that are its members. No user is a member: the root does not show a user's
 * computed `groups`, which its endpoint does.
 */
const GROUPS: readonly (readonly [string, readonly number[]])[] = [
  ['D3', []],
  ['a team', []],
  ['D5 team', [0, 1]],
];
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

type Resource = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe.each(everyStore)('search at the root on the $name store', ({ open }) => {
  let opened: Awaited<ReturnType<typeof open>>;
  let ctx: ReturnType<typeof setup>;
  let endpoints: { name: string; endpoint: string }[] = [];
  beforeAll(async () => {
    opened = await open();
    ctx = setup({ store: opened.store, onError: () => undefined });
    const names = ['ada', 'grace', 'alan', 'edsger', 'barbara', 'donald', 'frances'];
    for (const [i, name] of names.entries())
      await ctx.createUser(`${name}@root.example`, {
        displayName: `D${(i * 3) % 7}`,
        title: i % 2 ? 'Eng' : undefined,
      });
    // Groups too, so each filter, sort and page crosses the two types on every store.
    const ids: string[] = [];
    for (const [displayName, members] of GROUPS) {
      const reply = await ctx.request('POST', '/Groups', {
        body: {
          schemas: [GROUP],
          displayName,
          members: members.map((i) => ({ value: ids[i] })),
        },
      });
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      ids.push(reply.body.id);
    }
    await ctx.createUser('other-tenant@root.example', {}, KEY_B);
    const types = await ctx.request('GET', '/ResourceTypes');
    endpoints = types.body.Resources.map((t: Resource) => ({ name: t.name, endpoint: t.endpoint }));
  }, 60_000);
  afterAll(() => opened.close());

  /**
   * What the root must answer: each type's endpoint answer, in the order served. `typed` gives
   * the filter a type's endpoint is asked instead, where the root takes out the comparisons on
   * attributes the type lacks (false for its resources) and a part of the filter remains.
   */
  async function byType(
    params: Record<string, string>,
    typed: Readonly<Record<string, string>> = {},
  ): Promise<Resource[]> {
    const all: Resource[] = [];
    for (const { endpoint } of endpoints) {
      const filter = typed[endpoint] ?? params.filter;
      const asked = { ...params, ...(filter !== undefined && { filter }), count: '100' };
      const reply = await ctx.request('GET', endpoint, { query: q(asked) });
      // A filter on an attribute the type lacks matches nothing of that type.
      if (reply.status === 400 && reply.body.scimType === 'invalidFilter') continue;
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      all.push(...reply.body.Resources);
    }
    return all;
  }

  const root = (params: Record<string, string>) => ctx.request('GET', '/', { query: q(params) });
  const ids = (reply: Reply) => reply.body.Resources.map((r: Resource) => r.id);

  it('answers a ListResponse of every type, each resource with its schemas, resourceType and location', async () => {
    const reply = await root({ filter: 'meta.created pr' });
    expect(reply.status).toBe(200);
    expect(reply.body.schemas).toEqual([LIST]);
    const expected = await byType({ filter: 'meta.created pr' });
    expect(reply.body.totalResults).toBe(expected.length);
    expect(reply.body.itemsPerPage).toBe(expected.length);
    expect(reply.body.startIndex).toBe(1);
    expect(reply.body.Resources).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(7 + GROUPS.length);
    for (const resource of reply.body.Resources) {
      const type = endpoints.find((t) => t.name === resource.meta.resourceType);
      expect(type, resource.meta.resourceType).toBeDefined();
      expect(resource.schemas.length).toBeGreaterThan(0);
      expect(resource.meta.location).toBe(`${ORIGIN}${BASE}${type?.endpoint}/${resource.id}`);
    }
  });

  it('without a filter lists every resource of the tenant, a page at a time', async () => {
    const reply = await root({ count: '100' });
    expect(reply.status).toBe(200);
    expect(reply.body.Resources).toEqual(await byType({}));
    expect(reply.body.Resources.map((r: Resource) => r.userName)).not.toContain(
      'other-tenant@root.example',
    );
  });

  it('checks a filter against each type: the same matches as each endpoint, one type after another', async () => {
    const filters: [string, Record<string, string>?][] = [
      ['userName sw "a"'],
      ['title eq "Eng" or displayName eq "D3"', { '/Groups': 'displayName eq "D3"' }],
      ['displayName gt "D2" and not (title pr)', { '/Groups': 'displayName gt "D2"' }],
      ['emails[value ew "root.example"]'],
      ['displayName co "TEAM" or title pr', { '/Groups': 'displayName co "TEAM"' }],
      ['members pr and displayName gt "b"'],
      ['not (members[value pr]) and meta.created pr', { '/Users': 'meta.created pr' }],
    ];
    for (const [filter, typed] of filters) {
      const reply = await root({ filter, count: '100' });
      expect(reply.status, filter).toBe(200);
      const expected = await byType({ filter }, typed);
      expect(reply.body.Resources, filter).toEqual(expected);
      // Each filter finds resources of the type it concerns (the groups' ones, some groups).
      if (typed?.['/Groups'] || filter.startsWith('members'))
        expect(
          expected.map((r) => r.meta.resourceType),
          filter,
        ).toContain('Group');
      expect(reply.body.totalResults, filter).toBe(reply.body.Resources.length);
    }
  });

  it('sorts each type by sortBy, types in the order served', async () => {
    for (const sortOrder of ['ascending', 'descending']) {
      const params = { sortBy: 'displayName', sortOrder };
      const reply = await root({ ...params, count: '100' });
      expect(reply.status).toBe(200);
      expect(reply.body.Resources).toEqual(await byType(params));
    }
  });

  it('pages by startIndex and count over the whole order: no resource skipped or repeated', async () => {
    for (const params of [{}, { sortBy: 'displayName', sortOrder: 'descending' }]) {
      const all = await root({ ...params, count: '100' });
      const whole = ids(all);
      for (const count of [1, 2, 3]) {
        const seen: string[] = [];
        for (let start = 1; start <= whole.length + 1; start += count) {
          const page = await root({ ...params, startIndex: `${start}`, count: `${count}` });
          expect(page.body.totalResults).toBe(whole.length);
          expect(page.body.startIndex).toBe(start);
          expect(ids(page)).toEqual(whole.slice(start - 1, start - 1 + count));
          expect(page.body.itemsPerPage).toBe(ids(page).length);
          seen.push(...ids(page));
        }
        expect(seen).toEqual(whole);
      }
      const counted = await root({ ...params, count: '0' });
      expect([counted.body.totalResults, counted.body.Resources]).toEqual([whole.length, []]);
    }
  });

  it('POST /.search answers the SearchRequest as GET / answers the same parameters', async () => {
    const params = {
      filter: 'userName co "a"',
      sortBy: 'userName',
      sortOrder: 'descending',
      startIndex: '2',
      count: '3',
      attributes: 'userName,displayName',
    };
    const viaGet = await root(params);
    const viaPost = await ctx.request('POST', '/.search', {
      body: {
        schemas: [SEARCH],
        ...params,
        startIndex: 2,
        count: 3,
        attributes: ['userName', 'displayName'],
      },
    });
    expect(viaPost.status).toBe(200);
    expect(viaPost.body).toEqual(viaGet.body);
    expect(viaGet.body.Resources.length).toBe(3);
  });

  it('applies attributes and excludedAttributes per type, as each endpoint does', async () => {
    for (const params of [
      { attributes: 'userName,displayName' },
      { excludedAttributes: 'meta,emails' },
    ]) {
      const reply = await root({ ...params, count: '100' });
      expect(reply.body.Resources).toEqual(await byType(params));
    }
  });

  it('answers 400 invalidFilter for a bad filter or an attribute no type defines, before any read', async () => {
    for (const filter of [
      'nosuch eq "x"',
      'userName eq',
      'userName eq "a" or nosuch pr',
      'password eq "x"',
    ]) {
      const reply = await root({ filter });
      expect([reply.status, reply.body.scimType], filter).toEqual([400, 'invalidFilter']);
    }
  });

  it('answers 400 invalidValue for a sortBy no type defines, a bad count, both projections', async () => {
    for (const params of [
      { sortBy: 'nosuch' },
      { sortBy: 'password' },
      { count: 'many' },
      { attributes: 'userName', excludedAttributes: 'emails' },
    ]) {
      const reply = await root(params);
      expect([reply.status, reply.body.scimType], JSON.stringify(params)).toEqual([
        400,
        'invalidValue',
      ]);
    }
  });

  it('refuses cursor paging at the root with a 400 that says so, in both forms', async () => {
    const viaGet = await root({ cursor: '' });
    const viaPost = await ctx.request('POST', '/.search', {
      body: { schemas: [SEARCH], Cursor: 'abc', count: 2 },
    });
    for (const reply of [viaGet, viaPost]) {
      expect([reply.status, reply.body.scimType]).toEqual([400, 'invalidValue']);
      expect(reply.body.detail).toMatch(/cursor/i);
    }
  });

  it('answers a body that is not a SearchRequest with 400 invalidSyntax', async () => {
    for (const body of [[], { filter: 'userName pr' }, 'null']) {
      const reply = await ctx.request('POST', '/.search', { body });
      expect([reply.status, reply.body.scimType]).toEqual([400, 'invalidSyntax']);
    }
  });
});

describe('the routes / and /.search', () => {
  const ctx = setup();

  it('GET and HEAD / search, other methods answer 405 naming GET', async () => {
    expect((await ctx.request('GET', '/')).status).toBe(200);
    const head = await ctx.request('HEAD', '/');
    expect([head.status, head.body]).toEqual([200, undefined]);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const reply = await ctx.request(method, '/', { body: {} });
      expect(reply.status, method).toBe(405);
      expect(reply.headers.allow, method).toBe('GET');
    }
  });

  it('POST /.search searches, other methods answer 405; nothing lies below /.search', async () => {
    const body = { schemas: [SEARCH] };
    expect((await ctx.request('POST', '/.search', { body })).status).toBe(200);
    expect((await ctx.request('GET', '/.search')).status).toBe(405);
    expect((await ctx.request('POST', '/.search/x', { body })).status).toBe(404);
  });

  it('needs an API key, as every endpoint does', async () => {
    expect((await ctx.request('GET', '/', { key: null })).status).toBe(401);
  });
});
