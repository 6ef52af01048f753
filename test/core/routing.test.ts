import { describe, expect, it } from 'vitest';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { BASE, KEY_A, setup } from './harness.js';

describe('routing', () => {
  it('GET /Users and GET /Users/ answer the same list', async () => {
    const { request, createUser } = setup();
    await createUser('ada@example.org');
    const a = await request('GET', '/Users');
    const b = await request('GET', '/Users/');
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  it('an unknown route → 404 SCIM error', async () => {
    const { request } = setup();
    const reply = await request('GET', '/Widgets');
    expect(reply.status).toBe(404);
    expect(reply.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  });

  it('a path outside the base path → 404', async () => {
    const { scim } = setup();
    const response = await scim.handle({
      method: 'GET',
      path: '/elsewhere/Users',
      headers: { authorization: `Bearer ${KEY_A}` },
    });
    expect(response.status).toBe(404);
  });

  it('a known route with the wrong method → 405 with Allow', async () => {
    const { request } = setup();
    const reply = await request('DELETE', '/Users');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, POST');
  });

  it.each(['/Me'])('%s → 501 without a me hook', async (path) => {
    const { request } = setup();
    expect((await request('POST', path, { body: {} })).status).toBe(501);
  });

  it('an unexpected store fault → 500 with no internal detail, reported to onError', async () => {
    const store = new MemoryUserStore();
    store.list = async () => {
      throw new Error('connection string postgres://secret@db');
    };
    const errors: unknown[] = [];
    const scim = createScim({
      store,
      verifier: staticApiKeys([{ key: KEY_A, tenant: 't' }]),
      mailer: { sendWelcome: async () => undefined },
      basePath: BASE,
      onError: (e) => errors.push(e),
    });
    const response = await scim.handle({
      method: 'GET',
      path: `${BASE}/Users`,
      headers: { authorization: `Bearer ${KEY_A}` },
    });
    expect(response.status).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(JSON.parse(response.body ?? '')).toMatchObject({
      status: '500',
      detail: 'An internal error occurred.',
    });
    expect(errors).toHaveLength(1);
  });

  it('createScim names every missing contract method at start', () => {
    expect(() =>
      createScim({ store: {} as never, verifier: {} as never, mailer: {} as never }),
    ).toThrow(
      /store\.create\(\).*verifier\.verify\(\).*store\.events, store\.subscriptions.*mailer\.sendWelcome\(\)/,
    );
  });
});

describe('meta.location', () => {
  it('is built from the request origin and the base path', async () => {
    const { createUser } = setup();
    const user = await createUser('ada@example.org');
    expect(user.meta.location).toBe(`https://scim.example.org${BASE}/Users/${user.id}`);
  });

  it('uses publicBaseUrl, for servers behind a proxy', async () => {
    const { request } = setup({ publicBaseUrl: 'https://idp-facing.example.net/' });
    const reply = await request('POST', '/Users', {
      body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'ada@example.org',
      },
    });
    expect(reply.headers.location).toBe(
      `https://idp-facing.example.net${BASE}/Users/${reply.body.id}`,
    );
    expect(reply.body.meta.location).toBe(reply.headers.location);
  });
});

describe('HEAD', () => {
  it('answers like GET without a body, wherever GET is allowed', async () => {
    const { scim, createUser } = setup();
    const user = await createUser('ada@example.org');
    const headers = { authorization: 'Bearer key-tenant-a' };
    const head = await scim.handle({ method: 'HEAD', path: `${BASE}/Users/${user.id}`, headers });
    const get = await scim.handle({ method: 'GET', path: `${BASE}/Users/${user.id}`, headers });
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    expect(head.headers).toEqual(get.headers);
    const missing = await scim.handle({ method: 'HEAD', path: `${BASE}/Users/nope`, headers });
    expect(missing.status).toBe(404);
    expect(missing.body).toBeUndefined();
    const notAllowed = await scim.handle({
      method: 'HEAD',
      path: `${BASE}/Users/.search`,
      headers,
    });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.body).toBeUndefined();
  });
});

describe('an absolute-form request target', () => {
  it('routes like its path, and builds locations from its origin (RFC 9112 §3.2.2)', async () => {
    const { scim } = setup();
    const headers = {
      authorization: `Bearer ${KEY_A}`,
      'content-type': 'application/scim+json',
    };
    const list = await scim.handle({
      method: 'GET',
      path: `http://proxy-facing.example.org:8080${BASE}/Users`,
      headers,
      baseUrl: 'http://127.0.0.1:8080',
    });
    expect(list.status).toBe(200);
    const created = await scim.handle({
      method: 'POST',
      path: `HTTP://proxy-facing.example.org:8080${BASE}/Users`,
      headers,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'absolute@example.org',
      }),
      baseUrl: 'http://127.0.0.1:8080',
    });
    expect(created.status).toBe(201);
    expect(created.headers.location).toMatch(
      new RegExp(`^http://proxy-facing\\.example\\.org:8080${BASE}/Users/`),
    );
  });

  it('outside the base path is a 404 like any other path', async () => {
    const { scim } = setup();
    const response = await scim.handle({
      method: 'GET',
      path: 'http://host/elsewhere/Users',
      headers: { authorization: `Bearer ${KEY_A}` },
    });
    expect(response.status).toBe(404);
  });
});
