import { describe, expect, it } from 'vitest';
import { setup, patchBody, USER_SCHEMA } from './harness.js';

// A store that throws at once and one that rejects answer alike on every read and write path:
// a 500 whose cause `onError` sees.
const faults = {
  throws: () => {
    throw new Error('store down');
  },
  rejects: () => Promise.reject(new Error('store down')),
};

describe.each(Object.entries(faults))('a store whose get %s', (_, fault) => {
  async function service() {
    const seen: unknown[] = [];
    const harness = setup({ onError: (error) => seen.push(error) });
    const user = await harness.createUser('ada@example.org');
    harness.store.get = fault;
    return { ...harness, user, seen };
  }

  it('answers GET by id with 500 and reports the cause', async () => {
    const { request, user, seen } = await service();
    const reply = await request('GET', `/Users/${user.id}`);
    expect(reply.status).toBe(500);
    expect(reply.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    expect(seen).toEqual([new Error('store down')]);
  });

  it('answers PUT and PATCH with 500, changing nothing, and reports each cause', async () => {
    const { request, user, seen, store } = await service();
    const stored = store.peek('tenant-a', user.id);
    const put = await request('PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: false },
    });
    const patch = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    expect([put.status, patch.status]).toEqual([500, 500]);
    expect(seen).toEqual([new Error('store down'), new Error('store down')]);
    expect(store.peek('tenant-a', user.id)).toEqual(stored);
  });
});
