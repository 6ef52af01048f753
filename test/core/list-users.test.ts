import { beforeAll, describe, expect, it } from 'vitest';
import { setup } from './harness.js';

const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

describe('GET /Users', () => {
  const ctx = setup();
  const ids: string[] = [];
  beforeAll(async () => {
    for (let i = 1; i <= 120; i++)
      ids.push((await ctx.createUser(`user${String(i).padStart(3, '0')}@example.org`)).id);
  });
  const list = (query: string) => ctx.request('GET', '/Users', { query });
  const pageIds = (body: { Resources: Array<{ id: string }> }) => body.Resources.map((u) => u.id);

  it('orders records by id, which is creation order', () => {
    expect([...ids].sort()).toEqual(ids);
  });

  it('defaults to startIndex 1 and 50 records, with the ListResponse envelope', async () => {
    const reply = await list('');
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      schemas: [LIST],
      totalResults: 120,
      itemsPerPage: 50,
      startIndex: 1,
    });
    expect(pageIds(reply.body)).toEqual(ids.slice(0, 50));
  });

  it('pages with startIndex = 1 + count: 50 users with count 25 give two pages of 25', async () => {
    const first = await list('count=25&startIndex=1');
    const second = await list('count=25&startIndex=26');
    expect(first.body).toMatchObject({ itemsPerPage: 25, startIndex: 1, totalResults: 120 });
    expect(second.body).toMatchObject({ itemsPerPage: 25, startIndex: 26 });
    expect(pageIds(first.body)).toEqual(ids.slice(0, 25));
    expect(pageIds(second.body)).toEqual(ids.slice(25, 50));
  });

  it('caps count at 100', async () => {
    const reply = await list('count=1000');
    expect(reply.body.itemsPerPage).toBe(100);
    expect(pageIds(reply.body)).toEqual(ids.slice(0, 100));
  });

  it.each(['0', '-5'])('reads startIndex %s as 1', async (startIndex) => {
    const reply = await list(`startIndex=${startIndex}&count=2`);
    expect(reply.body.startIndex).toBe(1);
    expect(pageIds(reply.body)).toEqual(ids.slice(0, 2));
  });

  it('reads a negative count as 0: no records, the right total, Resources present', async () => {
    const reply = await list('count=-3');
    expect(reply.body).toMatchObject({ totalResults: 120, itemsPerPage: 0, Resources: [] });
  });

  it('a page past the end is empty with the right total', async () => {
    const reply = await list('startIndex=500');
    expect(reply.body).toMatchObject({
      totalResults: 120,
      itemsPerPage: 0,
      startIndex: 500,
      Resources: [],
    });
  });

  it.each(['startIndex=abc', 'count=1.5', 'count=', 'startIndex=1e3'])(
    '%s → 400 invalidValue',
    async (query) => {
      const reply = await list(query);
      expect(reply.status).toBe(400);
      expect(reply.body.scimType).toBe('invalidValue');
    },
  );

  it('filters by userName eq, without regard to case', async () => {
    const reply = await list(`filter=${encodeURIComponent('userName eq "USER007@Example.ORG"')}`);
    expect(reply.body).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
    expect(reply.body.Resources[0].id).toBe(ids[6]);
  });

  it('a filter value that is not an email (an IdP probe with a GUID) finds nothing, 200', async () => {
    const reply = await list(
      `filter=${encodeURIComponent('userName eq "3f2504e0-4f89-11d3-9a0c-0305e82c3301"')}`,
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ totalResults: 0, itemsPerPage: 0, Resources: [] });
  });

  it.each([
    ['an unknown attribute', 'shoeSize eq "42"'],
    ['a malformed expression', 'userName eq'],
    ['an unterminated string', 'userName eq "ada'],
  ])('%s → 400 invalidFilter', async (_label, filter) => {
    const reply = await list(`filter=${encodeURIComponent(filter)}`);
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidFilter');
  });

  it('every record carries meta.location', async () => {
    const reply = await list('count=1');
    expect(reply.body.Resources[0].meta.location).toMatch(new RegExp(`/Users/${ids[0]}$`));
  });

  it('an empty tenant gets Resources: []', async () => {
    const reply = await ctx.request('GET', '/Users', { key: 'key-tenant-b' });
    expect(reply.body).toMatchObject({
      totalResults: 0,
      itemsPerPage: 0,
      startIndex: 1,
      Resources: [],
    });
  });
});
