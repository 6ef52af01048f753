import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../src/core/auth/authenticate.js';
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

describe('bearerToken', () => {
  // The plain rule it reads by hand.
  const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;
  const pieces = [
    'Bearer',
    'bearer',
    'BEARER',
    'bEaReR',
    'Bearer ',
    'Basic ',
    ' ',
    ' ',
    '\t',
    '\n',
    '\r',
    '\v',
    '\f',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u200a',
    '\u200b',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\ufeff',
    '\u0085',
    '\u017f',
    '\u212a',
    'k',
    'K',
    'abc',
    '=',
    '\0',
    '\ud800',
    'é',
  ];
  const headers = fc.array(fc.constantFrom(...pieces), { maxLength: 8 }).map((p) => p.join(''));

  it('captures what /^bearer[ \\t]+(\\S+)[ \\t]*$/i captures', () => {
    fc.assert(
      fc.property(fc.oneof(headers, fc.string({ unit: 'binary', maxLength: 12 })), (header) => {
        expect(bearerToken(header)).toBe(BEARER.exec(header)?.[1]);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads the token between blanks, the scheme in any case', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bEARER \t abc \t')).toBe('abc');
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken('Bearerabc')).toBeUndefined();
    expect(bearerToken('Bearer abc\n')).toBeUndefined();
  });
});
