import { beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, USER_SCHEMA, patchBody, setup } from './harness.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

describe('attributes and excludedAttributes', () => {
  const ctx = setup();
  let id = '';
  beforeAll(async () => {
    const user = await ctx.createUser('ada@example.org', {
      schemas: [USER_SCHEMA, ENTERPRISE],
      displayName: 'Ada',
      emails: [{ value: 'ada@example.org', type: 'work', primary: true }],
      [ENTERPRISE]: { employeeNumber: '42', department: 'Maths' },
    });
    id = user.id;
  });

  it('attributes returns only those, plus id, userName and schemas (returned: always)', async () => {
    const reply = await ctx.request('GET', `/Users/${id}`, {
      query: 'attributes=displayName,name.givenName',
    });
    expect(reply.body).toEqual({
      schemas: expect.any(Array),
      id,
      userName: 'ada@example.org',
      displayName: 'Ada',
      name: { givenName: 'Ada' },
    });
  });

  it('attributes reaches extension attributes by URN', async () => {
    const reply = await ctx.request('GET', `/Users/${id}`, {
      query: `attributes=${ENTERPRISE}:employeeNumber,emails.value`,
    });
    expect(reply.body[ENTERPRISE]).toEqual({ employeeNumber: '42' });
    expect(reply.body.emails).toEqual([{ value: 'ada@example.org' }]);
    expect(reply.body.displayName).toBeUndefined();
  });

  it('excludedAttributes removes those but never id or userName', async () => {
    const reply = await ctx.request('GET', `/Users/${id}`, {
      query: `excludedAttributes=emails,meta,id,userName,${ENTERPRISE}`,
    });
    expect(reply.body.emails).toBeUndefined();
    expect(reply.body.meta).toBeUndefined();
    expect(reply.body[ENTERPRISE]).toBeUndefined();
    expect(reply.body.id).toBe(id);
    expect(reply.body.userName).toBe('ada@example.org');
    expect(reply.body[ACCOUNT].status).toBe('Pending');
    expect(reply.headers.etag).toBe('W/"1"');
  });

  it('applies to list pages and to PATCH responses', async () => {
    const list = await ctx.request('GET', '/Users', { query: 'attributes=userName' });
    expect(list.body.Resources).toEqual([
      { schemas: expect.any(Array), id, userName: 'ada@example.org' },
    ]);
    const patched = await ctx.request('PATCH', `/Users/${id}`, {
      query: 'attributes=displayName',
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Countess' }),
    });
    expect(patched.body).toEqual({
      schemas: expect.any(Array),
      id,
      userName: 'ada@example.org',
      displayName: 'Countess',
    });
  });

  it('both at once → 400 invalidValue', async () => {
    const reply = await ctx.request('GET', `/Users/${id}`, {
      query: 'attributes=displayName&excludedAttributes=emails',
    });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
  });
});

describe('POST /Users/.search', () => {
  const ctx = setup();
  beforeAll(async () => {
    for (const name of ['ada', 'grace', 'alan']) await ctx.createUser(`${name}@example.org`);
  });

  it('gives the same results as the GET form', async () => {
    const get = await ctx.request('GET', '/Users', {
      query: `filter=${encodeURIComponent('userName eq "GRACE@example.org"')}&attributes=userName`,
    });
    const post = await ctx.request('POST', '/Users/.search', {
      body: {
        schemas: [SEARCH],
        filter: 'userName eq "GRACE@example.org"',
        attributes: ['userName'],
        startIndex: 1,
        count: 10,
      },
    });
    expect(post.status).toBe(200);
    expect(post.body).toEqual(get.body);
    expect(post.body.totalResults).toBe(1);
  });

  it('pages like the GET form', async () => {
    const post = await ctx.request('POST', '/Users/.search', {
      body: { schemas: [SEARCH], startIndex: 2, count: 1 },
    });
    const get = await ctx.request('GET', '/Users', { query: 'startIndex=2&count=1' });
    expect(post.body).toEqual(get.body);
  });

  it.each([
    ['no SearchRequest schema', { filter: 'userName pr' }, 'invalidSyntax'],
    ['a count that is not an integer', { schemas: [SEARCH], count: 'ten' }, 'invalidValue'],
    ['a bad filter', { schemas: [SEARCH], filter: 'userName xx "a"' }, 'invalidFilter'],
  ])('%s → 400 %s', async (_label, body, scimType) => {
    const reply = await ctx.request('POST', '/Users/.search', { body });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe(scimType);
  });

  it('GET /Users/.search → 405', async () => {
    expect((await ctx.request('GET', '/Users/.search')).status).toBe(405);
  });
});
