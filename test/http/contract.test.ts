import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys, type WelcomeEmail } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import {
  expectScimError,
  expectScimJson,
  PATCH_SCHEMA,
  ScimClient,
  USER_SCHEMA,
} from './contract-client.js';
import { MOUNT, type RunningServer, targets } from './harness.js';

const sent: WelcomeEmail[] = [];
const scim = createScim({
  store: new MemoryUserStore(),
  verifier: staticApiKeys([
    { key: 'key-district-42', tenant: 'district-42' },
    { key: 'key-district-7', tenant: 'district-7' },
  ]),
  mailer: {
    sendWelcome: (email) => {
      sent.push(email);
      return Promise.resolve();
    },
  },
  basePath: MOUNT,
});
afterAll(() => scim.close());

describe.each(targets)('SCIM contract over HTTP on $name', (target) => {
  let server: RunningServer;
  const client = new ScimClient(() => server.url, 'key-district-42');
  const otherTenant = new ScimClient(() => server.url, 'key-district-7');
  // One shared service serves every target, so each target uses its own userNames.
  const slug = target.name.replace(/[^a-z0-9]/g, '');
  const email = (local: string): string => `${local}.${slug}@example.org`;

  beforeAll(async () => {
    server = await target.start(scim);
  });
  afterAll(() => server.close());

  it('POST /Users answers 201 with the user, Location, ETag and the SCIM media type', async () => {
    const reply = await client.createUser(email('create'), { active: true });
    const user = reply.json ?? {};
    const meta = user.meta as Record<string, unknown>;
    expectScimJson(reply);
    expect(user).toMatchObject({
      schemas: expect.arrayContaining([USER_SCHEMA]),
      userName: email('create'),
    });
    expect(typeof user.id).toBe('string');
    expect(reply.headers.get('location')).toBe(`${server.url}/Users/${String(user.id)}`);
    expect(meta.location).toBe(reply.headers.get('location'));
    expect(reply.headers.get('etag')).toBe(meta.version);
  });

  it('POST /Users accepts application/json too', async () => {
    const reply = await client.send('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: email('json') },
      contentType: 'application/json',
    });
    expect(reply.status).toBe(201);
    expectScimJson(reply);
  });

  it('answers a retried POST of the same userName, in any case, with 409 uniqueness', async () => {
    await client.createUser(email('twice'));
    const reply = await client.send('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: email('TWICE').toUpperCase() },
    });
    expectScimError(reply, 409, 'uniqueness');
    expect(await client.countByUserName(email('twice'))).toBe(1);
  });

  it('GET /Users and GET /Users/ both list, and a userName filter finds the user', async () => {
    await client.createUser(email('listed'));
    for (const path of ['/Users', '/Users/']) {
      const reply = await client.send('GET', path);
      expect(reply.status).toBe(200);
      expectScimJson(reply);
      expect(reply.json).toMatchObject({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      });
      expect(Array.isArray(reply.json?.Resources)).toBe(true);
    }
    const filter = encodeURIComponent(`userName eq "${email('LISTED').toUpperCase()}"`);
    const found = await client.send('GET', `/Users?filter=${filter}`);
    expect(found.json).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
    expect((found.json?.Resources as { userName: string }[])[0]?.userName).toBe(email('listed'));
  });

  it('GET /Users/{id} answers 200 with the user and its ETag', async () => {
    const created = await client.createUser(email('read'));
    const reply = await client.send('GET', `/Users/${String(created.json?.id)}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual(created.json);
    expect(reply.headers.get('etag')).toBe(created.headers.get('etag'));
  });

  it('GET /Users/{id} with a current If-None-Match answers 304 with no body', async () => {
    const created = await client.createUser(email('cached'));
    const etag = created.headers.get('etag') ?? '';
    const reply = await client.send('GET', `/Users/${String(created.json?.id)}`, {
      headers: { 'if-none-match': etag },
    });
    expect(reply.status).toBe(304);
    expect(reply.text).toBe('');
  });

  it('PUT /Users/{id} replaces the profile and changes the ETag', async () => {
    const created = await client.createUser(email('put'));
    const id = String(created.json?.id);
    const reply = await client.send('PUT', `/Users/${id}`, {
      body: {
        schemas: [USER_SCHEMA],
        userName: email('put'),
        name: { givenName: 'Grace', familyName: 'Hopper' },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.json?.name).toMatchObject({ givenName: 'Grace', familyName: 'Hopper' });
    expect(reply.headers.get('etag')).not.toBe(created.headers.get('etag'));
    expect((await client.send('GET', `/Users/${id}`)).json?.name).toMatchObject({
      givenName: 'Grace',
    });
  });

  it('PUT with a stale If-Match answers 412 and changes nothing', async () => {
    const created = await client.createUser(email('stale'));
    const id = String(created.json?.id);
    const etag = created.headers.get('etag') ?? '';
    await client.send('PATCH', `/Users/${id}`, {
      body: {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', path: 'displayName', value: 'First' }],
      },
    });
    const reply = await client.send('PUT', `/Users/${id}`, {
      headers: { 'if-match': etag },
      body: { schemas: [USER_SCHEMA], userName: email('stale'), displayName: 'Second' },
    });
    expectScimError(reply, 412);
    expect((await client.send('GET', `/Users/${id}`)).json?.displayName).toBe('First');
  });

  it('PATCH replace active false deactivates the user', async () => {
    const created = await client.createUser(email('patch'), { active: true });
    const id = String(created.json?.id);
    const reply = await client.send('PATCH', `/Users/${id}`, {
      body: {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      },
    });
    expect(reply.status).toBe(200);
    expectScimJson(reply);
    expect(reply.json?.active).toBe(false);
    expect(reply.json?.name).toMatchObject({ givenName: 'Ada', familyName: 'Lovelace' });
    expect((await client.send('GET', `/Users/${id}`)).json?.active).toBe(false);
  });

  it('DELETE /Users/{id} answers 204 with no body, then 404', async () => {
    const created = await client.createUser(email('delete'));
    const id = String(created.json?.id);
    const reply = await client.send('DELETE', `/Users/${id}`);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expectScimError(await client.send('GET', `/Users/${id}`), 404);
    expectScimError(await client.send('DELETE', `/Users/${id}`), 404);
  });

  it.each([
    ['no authorization header', null],
    ['an unknown key', 'not-a-key'],
  ])('answers 401 with WWW-Authenticate for %s', async (_case, token) => {
    const reply = await client.send('GET', '/Users', { token });
    expectScimError(reply, 401);
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });

  it('answers 401 to a write without a key and creates nothing', async () => {
    const reply = await client.send('POST', '/Users', {
      token: null,
      body: { schemas: [USER_SCHEMA], userName: email('anonymous') },
    });
    expectScimError(reply, 401);
    expect(await client.countByUserName(email('anonymous'))).toBe(0);
  });

  it('answers 415 to a text/plain body and creates nothing', async () => {
    const body = JSON.stringify({ schemas: [USER_SCHEMA], userName: email('plain') });
    expectScimError(await client.send('POST', '/Users', { body, contentType: 'text/plain' }), 415);
    expect(await client.countByUserName(email('plain'))).toBe(0);
  });

  it('answers 413 to a body over 1 MiB and creates nothing', async () => {
    const body = {
      schemas: [USER_SCHEMA],
      userName: email('huge'),
      displayName: 'x'.repeat(1024 * 1024),
    };
    // The server closes the connection instead of reading the whole body it refuses (RFC 9110
    // §15.5.14), in stages on Node, so the client still uploading reads the 413. A runtime that
    // closes it at once may break the upload before the client reads the answer.
    const reply = await client.send('POST', '/Users', { body }).catch((error: unknown) => {
      if (target.mayBreakUpload !== true || !brokenUpload(error)) throw error;
      return undefined;
    });
    if (reply !== undefined) expectScimError(reply, 413);
    expect(await client.countByUserName(email('huge'))).toBe(0);
  });

  it('answers 400 invalidSyntax to malformed JSON', async () => {
    expectScimError(
      await client.send('POST', '/Users', { body: '{"userName": ' }),
      400,
      'invalidSyntax',
    );
  });

  it('answers 404 to an unknown route', async () => {
    expectScimError(await client.send('GET', '/Widgets'), 404);
    expectScimError(await client.send('GET', '/Users/a/b'), 404);
  });

  it('answers 405 to a wrong method on a known route', async () => {
    const reply = await client.send('DELETE', '/Users');
    expectScimError(reply, 405);
    expect(reply.headers.get('allow')).toContain('GET');
  });

  it("keeps one tenant's users invisible to another tenant", async () => {
    const created = await client.createUser(email('private'));
    const id = String(created.json?.id);
    expectScimError(await otherTenant.send('GET', `/Users/${id}`), 404);
    expect(await otherTenant.countByUserName(email('private'))).toBe(0);
    const listed = await otherTenant.send('GET', '/Users?count=100');
    expect((listed.json?.Resources as { id: string }[]).some((u) => u.id === id)).toBe(false);
  });
});

// Whether `error` is fetch's failure on a connection the server closed during the upload.
function brokenUpload(error: unknown): boolean {
  const code = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  return error instanceof TypeError && (code === 'EPIPE' || code === 'ECONNRESET');
}
