// Search at the root (RFC 7644 §3.4.3): GET /?filter=... and POST /.search across every
// resource type served. The oracle is each type's own endpoint: the root answers the types'
// answers one after the other, in the order /ResourceTypes lists them, so these tests hold for
// every type served (Users today, Groups and a host's types when they are served).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyStore } from './every-store.js';
import { BASE, KEY_B, ORIGIN, setup, type Reply } from './harness.js';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
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
    await ctx.createUser('other-tenant@root.example', {}, KEY_B);
    const types = await ctx.request('GET', '/ResourceTypes');
    endpoints = types.body.Resources.map((t: Resource) => ({ name: t.name, endpoint: t.endpoint }));
  }, 60_000);
  afterAll(() => opened.close());

  /**
   * What the root must answer: each type's endpoint answer, in the order served; or, when a
   * type's store cannot answer the filter or sort (the PostgreSQL group store filters and sorts
   * less than the user store), that type's 400, which the root answers too.
   */
  async function byType(
    params: Record<string, string>,
  ): Promise<{ resources: Resource[]; refused?: Resource }> {
    const all: Resource[] = [];
    for (const { endpoint } of endpoints) {
      const reply = await ctx.request('GET', endpoint, { query: q({ ...params, count: '100' }) });
      if (reply.status === 400 && /store cannot/.test(String(reply.body.detail)))
        return { resources: [], refused: reply.body };
      // A filter on an attribute the type lacks matches nothing of that type.
      if (reply.status === 400 && reply.body.scimType === 'invalidFilter') continue;
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      all.push(...reply.body.Resources);
    }
    return { resources: all };
  }

  /** Asks the root and each endpoint; true when both answered the same refusal. */
  async function refusedAlike(reply: Reply, params: Record<string, string>): Promise<boolean> {
    const { refused } = await byType(params);
    // A type's part of the filter that its store cannot answer (the part left after the
    // attributes it lacks are taken out): refused by the root as that type's endpoint would.
    if (!refused && reply.status === 400 && /store cannot/.test(String(reply.body.detail)))
      return true;
    if (!refused) return false;
    expect(reply.status, JSON.stringify(params)).toBe(400);
    expect(reply.body.scimType).toBe(refused.scimType);
    return true;
  }

  const root = (params: Record<string, string>) => ctx.request('GET', '/', { query: q(params) });
  const ids = (reply: Reply) => reply.body.Resources.map((r: Resource) => r.id);

  it('answers a ListResponse of every type, each resource with its schemas, resourceType and location', async () => {
    const reply = await root({ filter: 'meta.created pr' });
    if (await refusedAlike(reply, { filter: 'meta.created pr' })) return;
    expect(reply.status).toBe(200);
    expect(reply.body.schemas).toEqual([LIST]);
    const expected = (await byType({ filter: 'meta.created pr' })).resources;
    expect(reply.body.totalResults).toBe(expected.length);
    expect(reply.body.itemsPerPage).toBe(expected.length);
    expect(reply.body.startIndex).toBe(1);
    expect(reply.body.Resources).toEqual(expected);
    expect(expected.length).toBeGreaterThanOrEqual(7);
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
    expect(reply.body.Resources).toEqual((await byType({})).resources);
    expect(reply.body.Resources.map((r: Resource) => r.userName)).not.toContain(
      'other-tenant@root.example',
    );
  });

  it('checks a filter against each type: the same matches as each endpoint, one type after another', async () => {
    for (const filter of [
      'userName sw "a"',
      'title eq "Eng" or displayName eq "D3"',
      'displayName gt "D2" and not (title pr)',
      'emails[value ew "root.example"]',
    ]) {
      const reply = await root({ filter, count: '100' });
      if (await refusedAlike(reply, { filter })) continue;
      expect(reply.status, filter).toBe(200);
      expect(reply.body.Resources, filter).toEqual((await byType({ filter })).resources);
      expect(reply.body.totalResults, filter).toBe(reply.body.Resources.length);
    }
  });

  it('sorts each type by sortBy, types in the order served', async () => {
    for (const sortOrder of ['ascending', 'descending']) {
      const params = { sortBy: 'displayName', sortOrder };
      const reply = await root({ ...params, count: '100' });
      if (await refusedAlike(reply, params)) continue;
      expect(reply.status).toBe(200);
      expect(reply.body.Resources).toEqual((await byType(params)).resources);
    }
  });

  it('pages by startIndex and count over the whole order: no resource skipped or repeated', async () => {
    for (const params of [{}, { sortBy: 'displayName', sortOrder: 'descending' }]) {
      const all = await root({ ...params, count: '100' });
      if (await refusedAlike(all, params)) continue;
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
      expect(reply.body.Resources).toEqual((await byType(params)).resources);
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
