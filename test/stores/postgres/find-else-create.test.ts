import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryUserStore } from '../../../src/stores/memory/index.js';
import type { UserStore } from '../../../src/contracts/user-store.js';
import { setup } from '../../core/harness.js';
import { backends, type Backend } from './harness.js';

// An IdP's loop, "find by userName, else create": the lookup and the uniqueness check must fold
// case alike, or PostgreSQL finds nothing for `Ünal@x.org`, refuses to create it again, and the
// loop never ends.
const stores: { name: string; open: () => Promise<{ store: UserStore; close(): unknown }> }[] = [
  { name: 'memory', open: async () => ({ store: new MemoryUserStore(), close: () => {} }) },
  ...backends.map(({ name, open }) => ({
    name,
    open: async () => {
      const backend: Backend = await open();
      return { store: backend.newStore(), close: () => backend.close() };
    },
  })),
];

describe.each(stores)('find, else create, over the SCIM API on $name', ({ open }) => {
  let opened: { store: UserStore; close(): unknown };
  let api: ReturnType<typeof setup>;
  beforeAll(async () => {
    opened = await open();
    api = setup({ store: opened.store });
  });
  afterAll(() => opened?.close());

  const find = async (userName: string) => {
    const reply = await api.request('GET', '/Users', {
      query: `filter=${encodeURIComponent(`userName eq "${userName}"`)}`,
    });
    expect(reply.status).toBe(200);
    return (reply.body.Resources as { id: string; userName: string }[]).map((u) => u.id);
  };
  const post = (userName: string) =>
    api.request('POST', '/Users', {
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName },
    });

  it('finds a user by its own non-ASCII userName and by any case of it, so one create suffices', async () => {
    for (const [userName, ...variants] of [
      ['Ünal@x.org', 'ünal@X.ORG', 'U\u0308NAL@x.org'],
      ['Émile@x.org', 'émile@x.org', 'e\u0301mile@x.org'],
      ['ΣΊΣΥΦΟΣ@x.org', 'σίσυφος@x.org'],
    ] as [string, ...string[]][]) {
      expect(await find(userName)).toEqual([]);
      const created = await post(userName);
      expect(created.status).toBe(201);
      expect(created.body.userName).toBe(userName);
      expect(await find(userName)).toEqual([created.body.id]);
      for (const variant of variants) {
        expect(await find(variant)).toEqual([created.body.id]);
        const again = await post(variant);
        expect(again.status).toBe(409);
        expect(again.body.scimType).toBe('uniqueness');
      }
    }
  });
});
