import { describe, expect, it } from 'vitest';
import { createScim, sha256Hex, staticApiKeys, type Tenant } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { KEY_B, USER_SCHEMA, patchBody, setup } from './harness.js';

// A minimal non-native thenable, as some promise libraries hand out.
function thenable<T>(value: T): PromiseLike<T> {
  return {
    then: (onFulfilled, onRejected) => Promise.resolve(value).then(onFulfilled, onRejected),
  };
}

describe('authentication', () => {
  it.each([
    ['no authorization header', null],
    ['an unknown key', 'not-a-key'],
  ])('%s → 401 with WWW-Authenticate: Bearer', async (_label, key) => {
    const { request } = setup();
    const reply = await request('GET', '/Users', { key });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(reply.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  });

  it.each(['Basic abc', 'Bearer', 'Bearer a b', 'key-tenant-a'])(
    'malformed header "%s" → 401',
    async (value) => {
      const { request } = setup();
      const reply = await request('GET', '/Users', {
        key: null,
        headers: { authorization: value },
      });
      expect(reply.status).toBe(401);
    },
  );

  it('an unauthenticated write changes nothing', async () => {
    const { request, allUsers } = setup();
    const reply = await request('POST', '/Users', {
      key: 'wrong',
      body: { schemas: [USER_SCHEMA], userName: 'a@example.org' },
    });
    expect(reply.status).toBe(401);
    expect(await allUsers()).toEqual([]);
  });

  it('accepts a key configured only by its SHA-256 digest, with any case of "Bearer"', async () => {
    const scim = createScim({
      store: new MemoryUserStore(),
      verifier: staticApiKeys([{ sha256: await sha256Hex('hashed-key'), tenant: 't' }]),
      mailer: { sendWelcome: async () => undefined },
    });
    const ok = await scim.handle({
      method: 'GET',
      path: '/Users',
      headers: { Authorization: 'bearer hashed-key' },
    });
    expect(ok.status).toBe(200);
    const bad = await scim.handle({
      method: 'GET',
      path: '/Users',
      headers: { authorization: 'Bearer hashed-kez' },
    });
    expect(bad.status).toBe(401);
  });

  it.each([
    ['answers synchronously', (t: Tenant | null) => t],
    ['answers with a promise', (t: Tenant | null) => Promise.resolve(t)],
    // Outside the contract's types, but `await` accepted it, so the fast path must too.
    [
      'answers with a thenable that is not a Promise',
      (t: Tenant | null) => thenable(t) as Promise<Tenant | null>,
    ],
  ])('accepts a verifier that %s, and refuses its null', async (_label, answer) => {
    const scim = createScim({
      store: new MemoryUserStore(),
      verifier: { verify: (token) => answer(token === 'good' ? { id: 't' } : null) },
      mailer: { sendWelcome: async () => undefined },
    });
    const get = (key: string) =>
      scim.handle({ method: 'GET', path: '/Users', headers: { authorization: `Bearer ${key}` } });
    expect((await get('good')).status).toBe(200);
    const bad = await get('bad');
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('answers 500, not a crash, when the verifier throws or rejects', async () => {
    for (const verify of [
      () => {
        throw new Error('down');
      },
      () => Promise.reject(new Error('down')),
    ]) {
      const scim = createScim({
        store: new MemoryUserStore(),
        verifier: { verify },
        mailer: { sendWelcome: async () => undefined },
        onError: () => undefined,
      });
      const reply = await scim.handle({
        method: 'GET',
        path: '/Users',
        headers: { authorization: 'Bearer any' },
      });
      expect(reply.status).toBe(500);
    }
  });

  it('refuses a malformed digest in config at start', () => {
    expect(() => staticApiKeys([{ sha256: 'abc', tenant: 't' }])).toThrow(/SHA-256/);
  });
});

describe('tenancy: a second tenant sees none of the first tenant’s users', () => {
  it('by id, list, filter, PUT, PATCH and DELETE', async () => {
    const { request, createUser, allUsers } = setup();
    const user = await createUser('ada@example.org', { active: true });
    const asB = { key: KEY_B };
    expect((await request('GET', `/Users/${user.id}`, asB)).status).toBe(404);
    expect(await allUsers(KEY_B)).toEqual([]);
    const filtered = await request('GET', '/Users', {
      ...asB,
      query: 'filter=userName%20eq%20%22ada%40example.org%22',
    });
    expect(filtered.body).toMatchObject({ totalResults: 0, Resources: [] });
    expect(
      (
        await request('PUT', `/Users/${user.id}`, {
          ...asB,
          body: { schemas: [USER_SCHEMA], userName: 'eve@example.org' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await request('PATCH', `/Users/${user.id}`, {
          ...asB,
          body: patchBody({ op: 'replace', path: 'active', value: false }),
        })
      ).status,
    ).toBe(404);
    expect((await request('DELETE', `/Users/${user.id}`, asB)).status).toBe(404);
    const after = await request('GET', `/Users/${user.id}`);
    expect(after.body).toEqual(user);
  });
});
