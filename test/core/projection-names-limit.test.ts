import { beforeAll, describe, expect, it } from 'vitest';
import { setup } from './harness.js';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

// Each listed name is parsed and resolved; a `.search` body of 1 MiB could otherwise list tens of
// thousands of them and hold the request (and the process) for the parsing alone.
describe('the number of names in attributes / excludedAttributes', () => {
  const ctx = setup();
  let id = '';
  beforeAll(async () => {
    id = (await ctx.createUser('ada@example.org', { displayName: 'Ada' })).id;
  });

  const names = (n: number) => Array.from({ length: n }, (_, i) => `name${i}`);

  it('accepts 1,000 names on a list search and a single GET', async () => {
    const search = await ctx.request('POST', '/Users/.search', {
      body: { schemas: [SEARCH], attributes: [...names(999), 'displayName'] },
    });
    expect(search.status).toBe(200);
    expect(search.body.Resources[0].displayName).toBe('Ada');
    const get = await ctx.request('GET', `/Users/${id}`, {
      query: `excludedAttributes=${names(1000).join(',')}`,
    });
    expect(get.status).toBe(200);
  });

  it('refuses 20,000 names with 400 invalidValue naming the limit, on every read form', async () => {
    const many = names(20_000);
    const answers = [
      await ctx.request('POST', '/Users/.search', {
        body: { schemas: [SEARCH], attributes: many },
      }),
      await ctx.request('POST', '/.search', {
        body: { schemas: [SEARCH], excludedAttributes: many },
      }),
      await ctx.request('GET', '/Users', { query: `attributes=${names(1001).join(',')}` }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.scimType).toBe('invalidValue');
      expect(answer.body.detail).toMatch(/more than 1000 names/);
    }
  });

  it('refuses it on a write before anything is written', async () => {
    const answer = await ctx.request('PATCH', `/Users/${id}`, {
      query: `attributes=${names(1001).join(',')}`,
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Changed' }],
      },
    });
    expect(answer.status).toBe(400);
    const after = await ctx.request('GET', `/Users/${id}`);
    expect(after.body.displayName).toBe('Ada');
  });
});
