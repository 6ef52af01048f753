import { describe, expect, it } from 'vitest';
import { staticApiKeys, type RequestCompletedEvent } from '../../src/index.js';
import { patchBody, setup } from './harness.js';

const STRICT = 'key-strict';
const LENIENT = 'key-lenient';
const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

// One server, a strict tenant and a lenient one; `/Me` is the user the `x-user` header names.
function server() {
  const harness = setup({
    verifier: staticApiKeys([
      { key: STRICT, tenant: 't-strict', profile: 'strict' },
      { key: LENIENT, tenant: 't-lenient', profile: 'lenient' },
    ]),
    me: (_tenant, request) => (request.headers['x-user'] as string | undefined) ?? null,
  });
  const events: RequestCompletedEvent[] = [];
  harness.scim.onRequest((event) => events.push(event));
  return { ...harness, events };
}

const UNQUOTED = {
  rule: 'unquotedFilterValues',
  where: 'filter',
  received: 'O',
  became: '"O"',
};

describe('search at the root under the tenant profile', () => {
  it('refuses an unquoted filter value for a strict tenant, GET and POST /.search', async () => {
    const { request, createUser, events } = server();
    await createUser('Olga', {}, STRICT);
    const get = await request('GET', '/', { key: STRICT, query: 'filter=userName%20sw%20O' });
    expect(get.status).toBe(400);
    expect(get.body.scimType).toBe('invalidFilter');
    const post = await request('POST', '/.search', {
      key: STRICT,
      body: { schemas: [SEARCH_REQUEST], filter: 'userName sw O' },
    });
    expect(post.status).toBe(400);
    expect(post.body.scimType).toBe('invalidFilter');
    expect(events.at(-1)!.rulesFired).toEqual([]);
  });

  it('accepts it for a lenient tenant and names unquotedFilterValues in rulesFired', async () => {
    const { request, createUser, events } = server();
    await createUser('Olga', {}, LENIENT);
    await createUser('Ada', {}, LENIENT);
    const get = await request('GET', '/', { key: LENIENT, query: 'filter=userName%20sw%20O' });
    expect(get.status).toBe(200);
    expect(get.body.Resources.map((r: { userName: string }) => r.userName)).toEqual(['Olga']);
    // Reported once, though the filter is asked of every resource type served.
    expect(events.at(-1)!.rulesFired).toEqual([UNQUOTED]);
    const post = await request('POST', '/.search', {
      key: LENIENT,
      body: { schemas: [SEARCH_REQUEST], filter: 'userName sw O' },
    });
    expect(post.status).toBe(200);
    expect(post.body.totalResults).toBe(1);
    expect(events.at(-1)!.rulesFired).toEqual([UNQUOTED]);
  });
});

describe('/Me and /Bulk under the tenant profile', () => {
  const entraFalse = patchBody({ op: 'Replace', path: 'active', value: 'False' });

  it('reads a PATCH of /Me with the tenant profile rules, and traces them', async () => {
    const { request, createUser, events } = server();
    // The tenant of `key` PATCHes its own new user through `/Me`.
    const patchMe = async (key: string, userName: string) => {
      const user = await createUser(userName, { active: true }, key);
      return request('PATCH', '/Me', { key, headers: { 'x-user': user.id }, body: entraFalse });
    };
    expect((await patchMe(STRICT, 's@example.org')).status).toBe(400);
    const lenient = await patchMe(LENIENT, 'l@example.org');
    expect(lenient.status).toBe(200);
    expect(lenient.body.active).toBe(false);
    expect(events.at(-1)!.rulesFired.map((fired) => fired.rule)).toEqual([
      'opAnyCase',
      'stringBooleans',
    ]);
  });

  it('runs each operation of a /Bulk request with the tenant profile rules', async () => {
    const { request, createUser } = server();
    const bulkOf = (id: string) => ({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
      Operations: [{ method: 'PATCH', path: `/Users/${id}`, data: entraFalse }],
    });
    const strictUser = await createUser('s@example.org', { active: true }, STRICT);
    const strict = await request('POST', '/Bulk', { key: STRICT, body: bulkOf(strictUser.id) });
    expect(strict.status).toBe(200);
    expect(strict.body.Operations[0].status).toBe('400');
    const lenientUser = await createUser('l@example.org', { active: true }, LENIENT);
    const lenient = await request('POST', '/Bulk', { key: LENIENT, body: bulkOf(lenientUser.id) });
    expect(lenient.body.Operations[0].status).toBe('200');
  });
});
