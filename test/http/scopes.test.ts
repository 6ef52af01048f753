import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, type Tenant } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import {
  expectScimError,
  patchOp,
  ScimClient,
  USER_SCHEMA,
  type Reply,
} from './contract-client.js';
import { MOUNT, type RunningServer, targets } from './harness.js';

const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';

// Four keys of one tenant: everything (no scopes), read only, write (which includes read), none.
const keys: Readonly<Record<string, Tenant>> = {
  full: { id: 'district-42' },
  read: { id: 'district-42', scopes: ['scim:read'] },
  write: { id: 'district-42', scopes: ['scim:write'] },
  none: { id: 'district-42', scopes: [] },
};
const scim = createScim({
  store: new MemoryUserStore(),
  verifier: { verify: (token) => (Object.hasOwn(keys, token) ? (keys[token] ?? null) : null) },
  mailer: { sendWelcome: () => Promise.resolve() },
  basePath: MOUNT,
});
afterAll(() => scim.close());

describe.each(targets)('API key scopes on $name', (target) => {
  let server: RunningServer;
  let userId = '';
  let version = '';
  const full = new ScimClient(() => server.url, 'full');
  const read = new ScimClient(() => server.url, 'read');
  const write = new ScimClient(() => server.url, 'write');
  const none = new ScimClient(() => server.url, 'none');
  const slug = target.name.replace(/[^a-z0-9]/g, '');
  const email = (local: string): string => `${local}.${slug}@example.org`;

  beforeAll(async () => {
    server = await target.start(scim);
    const created = await full.createUser(email('kept'));
    userId = String(created.json?.id);
    version = String(created.headers.get('etag'));
  });
  afterAll(() => server.close());

  const reads: readonly [string, string, unknown?][] = [
    ['GET', '/Users'],
    ['GET', '/Users/'],
    ['GET', '/Users/{id}'],
    ['HEAD', '/Users/{id}'],
    ['POST', '/Users/.search', { schemas: [SEARCH], count: 1 }],
    ['GET', '/'],
    ['POST', '/.search', { schemas: [SEARCH], count: 1 }],
    ['GET', '/ServiceProviderConfig'],
    ['GET', '/ResourceTypes'],
    ['GET', '/Schemas'],
  ];
  const send = (client: ScimClient, method: string, path: string, body?: unknown) =>
    client.send(method, path.replace('{id}', userId), body === undefined ? {} : { body });

  it.each(reads)('a read-only key may %s %s', async (method, path, body) => {
    expect((await send(read, method, path, body)).status).toBe(200);
    expect((await send(write, method, path, body)).status).toBe(200);
  });

  it.each(reads)('a key with no scope gets 403 on %s %s', async (method, path, body) => {
    const reply = await send(none, method, path, body);
    expect(reply.status).toBe(403);
    if (method !== 'HEAD') expectScimError(reply, 403);
  });

  async function expectUnchanged(): Promise<void> {
    const reply = await full.send('GET', `/Users/${userId}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('etag')).toBe(version);
  }

  function expectForbidden(reply: Reply): void {
    expectScimError(reply, 403);
    expect(reply.json?.detail).toMatch(/scim:write/);
  }

  it('a read-only key gets 403 on POST /Users and nothing is created', async () => {
    const reply = await read.send('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: email('refused') },
    });
    expectForbidden(reply);
    expect(await full.countByUserName(email('refused'))).toBe(0);
  });

  it('a read-only key gets 403 on PUT, PATCH and DELETE, and the user is unchanged', async () => {
    const put = { schemas: [USER_SCHEMA], userName: email('kept'), displayName: 'Changed' };
    expectForbidden(await read.send('PUT', `/Users/${userId}`, { body: put }));
    const patch = patchOp({ op: 'replace', path: 'displayName', value: 'Changed' });
    expectForbidden(await read.send('PATCH', `/Users/${userId}`, { body: patch }));
    expectForbidden(await read.send('DELETE', `/Users/${userId}`));
    await expectUnchanged();
  });

  it('a read-only key gets 403 on the whole /Bulk request, and no operation runs', async () => {
    const reply = await read.send('POST', '/Bulk', {
      body: {
        schemas: [BULK],
        Operations: [
          {
            method: 'POST',
            path: '/Users',
            bulkId: 'a',
            data: { schemas: [USER_SCHEMA], userName: email('bulk') },
          },
          {
            method: 'PATCH',
            path: `/Users/${userId}`,
            data: patchOp({ op: 'replace', path: 'displayName', value: 'Changed' }),
          },
        ],
      },
    });
    expectForbidden(reply);
    expect(await full.countByUserName(email('bulk'))).toBe(0);
    await expectUnchanged();
  });

  it('a write key may write', async () => {
    const created = await write.createUser(email('written'));
    expect((await write.send('DELETE', `/Users/${String(created.json?.id)}`)).status).toBe(204);
  });
});
