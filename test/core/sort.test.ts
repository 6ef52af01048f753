import { beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { setup } from './harness.js';

describe('sortBy and sortOrder', () => {
  const ctx = setup();
  beforeAll(async () => {
    await ctx.createUser('carol@example.org', {
      name: { familyName: 'zeta' },
      emails: [{ value: 'b@x.org' }, { value: 'z@x.org', primary: true }],
    });
    await ctx.createUser('Alice@example.org', {
      name: { familyName: 'Beta' },
      emails: [{ value: 'a@x.org' }],
    });
    await ctx.createUser('bob@example.org', { name: { familyName: 'alpha' } });
    await ctx.createUser('dave@example.org', { name: { givenName: 'No family' } });
  });
  const names = async (query: string) => {
    const reply = await ctx.request('GET', '/Users', { query });
    expect(reply.status).toBe(200);
    return reply.body.Resources.map((u: { userName: string }) => u.userName);
  };

  it('sorts by userName without regard to case, ascending by default', async () => {
    expect(await names('sortBy=userName')).toEqual([
      'Alice@example.org',
      'bob@example.org',
      'carol@example.org',
      'dave@example.org',
    ]);
    expect(await names('sortBy=userName&sortOrder=descending')).toEqual([
      'dave@example.org',
      'carol@example.org',
      'bob@example.org',
      'Alice@example.org',
    ]);
  });

  it('puts users without a value last in ascending order and first in descending order', async () => {
    expect(await names('sortBy=name.familyName')).toEqual([
      'bob@example.org',
      'Alice@example.org',
      'carol@example.org',
      'dave@example.org',
    ]);
    expect((await names('sortBy=name.familyName&sortOrder=descending'))[0]).toBe(
      'dave@example.org',
    );
  });

  it('sorts a multi-valued attribute by its primary value, else its first', async () => {
    expect((await names('sortBy=emails.value')).slice(0, 2)).toEqual([
      'Alice@example.org',
      'carol@example.org',
    ]);
    expect(await names('sortBy=emails')).toEqual(await names('sortBy=emails.value'));
  });

  it('pages through a sorted list with filter, startIndex and count', async () => {
    const query = `filter=${encodeURIComponent('userName ne "dave@example.org"')}&sortBy=userName&sortOrder=descending&count=2&startIndex=2`;
    const reply = await ctx.request('GET', '/Users', { query });
    expect(reply.body.totalResults).toBe(3);
    expect(reply.body.Resources.map((u: { userName: string }) => u.userName)).toEqual([
      'bob@example.org',
      'Alice@example.org',
    ]);
  });

  it('sorts by meta.created (creation order) like the default order', async () => {
    expect(await names('sortBy=meta.created')).toEqual(await names(''));
  });

  it.each([
    ['an unknown attribute', 'sortBy=shoeSize'],
    ['a bad sortOrder', 'sortBy=userName&sortOrder=up'],
    ['an attribute that is never returned', 'sortBy=password'],
  ])('%s → 400 invalidValue', async (_label, query) => {
    const reply = await ctx.request('GET', '/Users', { query });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
  });

  it('a store that cannot sort gets a precise 400, and discovery says so', async () => {
    const store = new MemoryUserStore();
    Object.defineProperty(store, 'capabilities', { value: {} });
    const scim = createScim({
      store,
      verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
      mailer: { sendWelcome: async () => undefined },
    });
    const headers = { authorization: 'Bearer k' };
    const sorted = await scim.handle({
      method: 'GET',
      path: '/Users',
      query: 'sortBy=userName',
      headers,
    });
    expect(sorted.status).toBe(400);
    const spc = await scim.handle({ method: 'GET', path: '/ServiceProviderConfig', headers });
    expect(JSON.parse(spc.body ?? '{}').sort.supported).toBe(false);
  });
});
