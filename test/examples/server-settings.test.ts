// The example server's settings for tenant profiles, RFC 9865 cursors and the /Me hook
// (docs/example-server.md, "Profiles, cursors and /Me").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../examples/server/config.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { sendTo } from './example-stores.js';
import { testConfig } from './test-config.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const SECRET = 'a-cursor-secret-of-at-least-32-characters';

const send = sendTo;

describe('readConfig: profiles, cursors and /Me', () => {
  const env = { SCIM_API_KEYS: 'k-entra:district-42,k-strict:conformance,k-other:other' };

  it('reads each setting, with its default when unset', () => {
    const config = readConfig({
      ...env,
      SCIMKIT_TENANT_PROFILES: 'district-42:entra, conformance:strict',
      SCIMKIT_DEFAULT_PROFILE: 'okta',
      SCIMKIT_CURSOR_SECRET: SECRET,
      SCIMKIT_CURSOR_TIMEOUT_SECONDS: '60',
      SCIMKIT_ME_HEADER: 'X-SCIM-User',
      SCIMKIT_ADVERTISE_CURSORS: 'false',
      SCIMKIT_STORE: 'memory',
    });
    expect(config.keys).toEqual([
      { key: 'k-entra', tenant: 'district-42', profile: 'entra' },
      { key: 'k-strict', tenant: 'conformance', profile: 'strict' },
      { key: 'k-other', tenant: 'other' },
    ]);
    expect(config).toMatchObject({
      defaultProfile: 'okta',
      cursorSecret: SECRET,
      cursorTimeoutSeconds: 60,
      meHeader: 'x-scim-user',
      advertiseCursors: false,
    });
    const defaults = readConfig({ ...env, SCIMKIT_STORE: 'memory' });
    expect(defaults).toMatchObject({
      defaultProfile: 'lenient',
      cursorTimeoutSeconds: 3600,
      advertiseCursors: true,
    });
    expect(defaults.cursorSecret).toBeUndefined();
    expect(defaults.meHeader).toBeUndefined();
  });

  it('refuses at start a setting it cannot use, naming the variable', () => {
    const bad: [Record<string, string>, string][] = [
      [{ SCIMKIT_TENANT_PROFILES: 'district-42:azure' }, 'SCIMKIT_TENANT_PROFILES: "azure"'],
      [{ SCIMKIT_TENANT_PROFILES: 'nobody:strict' }, 'no API key is for tenant "nobody"'],
      [{ SCIMKIT_TENANT_PROFILES: 'strict' }, 'not a tenant:profile pair'],
      [{ SCIMKIT_DEFAULT_PROFILE: 'loose' }, 'SCIMKIT_DEFAULT_PROFILE: "loose"'],
      [{ SCIMKIT_CURSOR_SECRET: 'short' }, 'SCIMKIT_CURSOR_SECRET'],
      [{ SCIMKIT_CURSOR_TIMEOUT_SECONDS: '-1' }, 'SCIMKIT_CURSOR_TIMEOUT_SECONDS'],
      [{ SCIMKIT_ME_HEADER: 'x user' }, 'SCIMKIT_ME_HEADER'],
      [{ SCIMKIT_ADVERTISE_CURSORS: 'no' }, 'SCIMKIT_ADVERTISE_CURSORS: "no"'],
    ];
    for (const [extra, message] of bad)
      expect(() => readConfig({ ...env, SCIMKIT_STORE: 'memory', ...extra }), message).toThrow(
        message,
      );
  });
});

describe('the example server with profiles, a cursor secret and a /Me header', () => {
  let a: RunningServer;
  let b: RunningServer;
  beforeAll(async () => {
    const config = testConfig({
      keys: [
        { key: 'k-entra', tenant: 'district-42', profile: 'entra' },
        { key: 'k-strict', tenant: 'conformance', profile: 'strict' },
      ],
      cursorSecret: SECRET,
      meHeader: 'x-scim-user',
    });
    a = await startServer(config, { print: () => undefined });
    b = await startServer(config, { print: () => undefined });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('reads each tenant’s requests with its profile', async () => {
    const body = { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: 'True' };
    const entra = await send(`${a.url}/Users`, 'POST', 'k-entra', body);
    expect([entra.status, entra.body.active]).toEqual([201, true]);
    const strict = await send(`${a.url}/Users`, 'POST', 'k-strict', body);
    expect(strict.status).toBe(400);
  });

  it('signs cursors with the configured secret, so another instance takes them', async () => {
    for (const userName of ['c1@example.org', 'c2@example.org', 'c3@example.org'])
      await send(`${a.url}/Users`, 'POST', 'k-entra', { schemas: [USER_SCHEMA], userName });
    const first = await send(`${a.url}/Users?cursor=&count=1`, 'GET', 'k-entra');
    expect(typeof first.body.nextCursor).toBe('string');
    const next = await send(
      `${b.url}/Users?cursor=${encodeURIComponent(first.body.nextCursor)}&count=1`,
      'GET',
      'k-entra',
    );
    expect(next.status).toBe(200);
  });

  it('serves /Me for the user the header names', async () => {
    const user = await send(`${a.url}/Users`, 'POST', 'k-entra', {
      schemas: [USER_SCHEMA],
      userName: 'me@example.org',
    });
    const as = { 'X-SCIM-User': user.body.id };
    const me = await send(`${a.url}/Me`, 'GET', 'k-entra', undefined, as);
    expect([me.status, me.body.userName]).toEqual([200, 'me@example.org']);
    const patched = await send(
      `${a.url}/Me`,
      'PATCH',
      'k-entra',
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: 'Me' }] },
      as,
    );
    expect(patched.body.title).toBe('Me');
    expect((await send(`${a.url}/Me`, 'GET', 'k-entra')).status).toBe(404);
    // Another tenant's key finds no such user: the header gives nothing the key does not.
    expect((await send(`${a.url}/Me`, 'GET', 'k-strict', undefined, as)).status).toBe(404);
  });
});

describe('the example server with SCIMKIT_ADVERTISE_CURSORS=false', () => {
  let server: RunningServer;
  beforeAll(async () => {
    // What readConfig makes of SCIMKIT_ADVERTISE_CURSORS=false (the first test above).
    server = await startServer(testConfig({ advertiseCursors: false }), {
      print: () => undefined,
    });
  }, 60_000);
  afterAll(async () => server?.close());

  it('leaves the pagination block out of /ServiceProviderConfig and still pages by cursor', async () => {
    const spc = await send(`${server.url}/ServiceProviderConfig`, 'GET', 'k1');
    expect(spc.status).toBe(200);
    expect(spc.body).not.toHaveProperty('pagination');
    for (const userName of ['p1@example.org', 'p2@example.org'])
      await send(`${server.url}/Users`, 'POST', 'k1', { schemas: [USER_SCHEMA], userName });
    const first = await send(`${server.url}/Users?cursor=&count=1`, 'GET', 'k1');
    expect(first.body.Resources).toHaveLength(1);
    const next = await send(
      `${server.url}/Users?cursor=${encodeURIComponent(first.body.nextCursor)}&count=1`,
      'GET',
      'k1',
    );
    expect([next.status, next.body.Resources.length]).toEqual([200, 1]);
  });
});
