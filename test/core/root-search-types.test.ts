// Search at the root over two resource types (User and Group), on services that hold their
// resources in arrays and record what they are asked: how a filter applies to a type that lacks
// an attribute, the order across types, and that a page asks each type only for its slice.
import { describe, expect, it } from 'vitest';
import { responseBudget } from '../../src/core/budget/response-budget.js';
import type { ListQuery } from '../../src/contracts/store-query.js';
import type { HandlerConfig, HandlerContext } from '../../src/core/handlers/context.js';
import type {
  ResourceEndpoint,
  EndpointService,
  StoredResource,
} from '../../src/core/handlers/resource-endpoint.js';
import { rootList, rootSearch } from '../../src/core/handlers/root-search.js';
import { scimErrors } from '../../src/errors/index.js';
import { checkFilter, compileFilter, compileSort, parseFilter } from '../../src/filter/index.js';
import { groupResourceType } from '../../src/schema/group-resource-type.js';
import type { CompiledResourceType } from '../../src/schema/resource-type.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';

type Resource = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const BASE_URL = 'https://scim.example.org/v2';

function arrayEndpoint(type: CompiledResourceType, resources: Resource[]) {
  const calls: { startIndex: number; count: number; filtered: boolean }[] = [];
  const refuse = () => {
    throw new Error('not used by search');
  };
  const service: EndpointService = {
    async list(_tenant, query: ListQuery) {
      calls.push({
        startIndex: query.startIndex,
        count: query.count,
        filtered: query.filter !== undefined,
      });
      let matching = query.filter ? resources.filter(compileFilter(query.filter, type)) : resources;
      if (query.sortBy)
        matching = [...matching].sort(
          compileSort(query.sortBy, query.sortOrder ?? 'ascending', type),
        );
      const start = query.startIndex - 1;
      return {
        totalResults: matching.length,
        resources: matching.slice(start, start + query.count) as unknown as StoredResource[],
      };
    },
    // This store cannot filter on members (as a store may declare).
    assertFilterSupported(_filter, text) {
      if (/members/i.test(text))
        throw scimErrors.invalidFilter('This store cannot filter on members.');
    },
    assertSortSupported() {},
    create: refuse,
    get: refuse,
    replace: refuse,
    patch: refuse,
    delete: refuse,
  };
  const endpoint: ResourceEndpoint = {
    type,
    service,
    readFilter: (text) => checkFilter(parseFilter(text), type),
    parseFilter: (text) => parseFilter(text),
  };
  return { endpoint, calls };
}

const resource = (schema: string, resourceType: string, id: string, extra: Resource) => ({
  schemas: [schema],
  id,
  ...extra,
  meta: { resourceType, version: 'W/"1"' },
});
const user = (id: string, userName: string, displayName: string) =>
  resource('urn:ietf:params:scim:schemas:core:2.0:User', 'User', id, { userName, displayName });
const group = (id: string, displayName: string) =>
  resource('urn:ietf:params:scim:schemas:core:2.0:Group', 'Group', id, { displayName });

function service() {
  const users = arrayEndpoint(userResourceType(), [
    user('u1', 'carol', 'Alpha'),
    user('u2', 'alice', 'Beta'),
    user('u3', 'bob', 'Alpha two'),
  ]);
  const groups = arrayEndpoint(groupResourceType(), [
    group('g1', 'Alpha team'),
    group('g2', 'Gamma'),
    group('g3', 'Alpha crew'),
    group('g4', 'Delta'),
  ]);
  const config: HandlerConfig = {
    basePath: '',
    maxBodyBytes: 1 << 20,
    defaultPageSize: 50,
    maxPageSize: 100,
    sortSupported: true,
    changePassword: false,
    advertisePagination: true,
    answers: { serviceConfigurationAlias: false },
    cursors: undefined,
    maxBulkOperations: 1000,
    bulkConcurrency: 1,
    maxBulkPayloadBytes: 1 << 20,
    me: undefined,
    endpoints: [users.endpoint, groups.endpoint],
    responses: responseBudget({}),
    reportError: () => undefined,
  };
  const context = (method: string, query: string, body?: unknown): HandlerContext => ({
    request: {
      method,
      path: method === 'GET' ? '/' : '/.search',
      query,
      headers: body === undefined ? {} : { 'content-type': 'application/scim+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    tenant: { id: 't' },
    id: '',
    baseUrl: BASE_URL,
    config,
    dispatcher: { runOperation: () => Promise.reject(new Error('no bulk in this test')) },
  });
  async function get(params: Record<string, string>) {
    const response = await rootList(context('GET', new URLSearchParams(params).toString()));
    return { status: response.status, body: JSON.parse(response.body as string) };
  }
  async function post(body: unknown) {
    const response = await rootSearch(context('POST', '', body));
    return { status: response.status, body: JSON.parse(response.body as string) };
  }
  return { users: users.calls, groups: groups.calls, get, post };
}

const ids = (reply: { body: Resource }) => reply.body.Resources.map((r: Resource) => r.id);

describe('search at the root across User and Group', () => {
  it('lists the users then the groups, each with its location and resourceType', async () => {
    const reply = await service().get({});
    expect(ids(reply)).toEqual(['u1', 'u2', 'u3', 'g1', 'g2', 'g3', 'g4']);
    expect(reply.body.totalResults).toBe(7);
    expect(reply.body.Resources[3].meta).toEqual({
      resourceType: 'Group',
      version: 'W/"1"',
      location: `${BASE_URL}/Groups/g1`,
    });
    expect(reply.body.Resources[0].meta.location).toBe(`${BASE_URL}/Users/u1`);
  });

  it('applies a filter on an attribute both types have to both', async () => {
    const reply = await service().get({ filter: 'displayName sw "alpha"' });
    expect(ids(reply)).toEqual(['u1', 'u3', 'g1', 'g3']);
  });

  it('matches nothing of a type that lacks the attribute, without asking that type', async () => {
    const s = service();
    expect(ids(await s.get({ filter: 'userName pr' }))).toEqual(['u1', 'u2', 'u3']);
    expect(s.groups).toEqual([]);
  });

  it('reads a comparison on a missing attribute as false inside and, or and not', async () => {
    const s = service();
    expect(ids(await s.get({ filter: 'userName eq "alice" or displayName eq "Gamma"' }))).toEqual([
      'u2',
      'g2',
    ]);
    expect(ids(await s.get({ filter: 'not (userName eq "alice")' }))).toEqual([
      'u1',
      'u3',
      'g1',
      'g2',
      'g3',
      'g4',
    ]);
    // The groups were asked for all their groups: `not (false)` is no filter at all.
    expect(s.groups.at(-1)?.filtered).toBe(false);
    expect(ids(await s.get({ filter: 'userName pr and displayName sw "A"' }))).toEqual([
      'u1',
      'u3',
    ]);
  });

  it("answers a filter one store cannot answer with that store's 400, as its endpoint does", async () => {
    const s = service();
    await expect(
      s.get({ filter: 'members.value eq "u1" or userName eq "bob"' }),
    ).rejects.toMatchObject({
      status: 400,
      scimType: 'invalidFilter',
    });
    expect([s.users, s.groups]).toEqual([[], []]);
  });

  it('answers 400 invalidFilter for an attribute neither type defines', async () => {
    await expect(
      service().get({ filter: 'nosuch eq "x" or displayName pr' }),
    ).rejects.toMatchObject({
      status: 400,
      scimType: 'invalidFilter',
    });
  });

  it('asks each type only for the part of the page that falls in it', async () => {
    const s = service();
    const page = await s.get({ startIndex: '3', count: '3' });
    expect(ids(page)).toEqual(['u3', 'g1', 'g2']);
    expect(page.body).toMatchObject({ totalResults: 7, itemsPerPage: 3, startIndex: 3 });
    expect(s.users.at(-1)).toMatchObject({ startIndex: 3, count: 3 });
    expect(s.groups.at(-1)).toMatchObject({ startIndex: 1, count: 2 });
    const later = await s.get({ startIndex: '5', count: '2' });
    expect(ids(later)).toEqual(['g2', 'g3']);
    expect(s.users.at(-1)).toMatchObject({ startIndex: 5, count: 2 });
    expect(s.groups.at(-1)).toMatchObject({ startIndex: 2, count: 2 });
    const full = await s.get({ startIndex: '1', count: '2' });
    expect(ids(full)).toEqual(['u1', 'u2']);
    // The page is full: the groups are only counted.
    expect(s.groups.at(-1)).toMatchObject({ startIndex: 1, count: 0 });
    expect(full.body.totalResults).toBe(7);
  });

  it('sorts by sortBy within the types that define it, the others in their own order', async () => {
    const s = service();
    const byUserName = await s.get({ sortBy: 'userName', sortOrder: 'descending' });
    expect(ids(byUserName)).toEqual(['u1', 'u3', 'u2', 'g1', 'g2', 'g3', 'g4']);
    const byDisplayName = await s.post({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
      sortBy: 'displayName',
    });
    expect(ids(byDisplayName)).toEqual(['u1', 'u3', 'u2', 'g3', 'g1', 'g4', 'g2']);
  });

  it('projects each type with its own attributes', async () => {
    const reply = await service().get({ attributes: 'userName', count: '4' });
    expect(reply.body.Resources.map((r: Resource) => Object.keys(r).sort())).toEqual([
      ['id', 'schemas', 'userName'],
      ['id', 'schemas', 'userName'],
      ['id', 'schemas', 'userName'],
      ['id', 'schemas'],
    ]);
  });
});
