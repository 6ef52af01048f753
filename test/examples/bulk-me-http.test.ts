import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimNode } from '../../src/adapters/node/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { exampleStores, sendTo, serveDuringTests } from './example-stores.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const send = (url: string, method: string, body?: unknown, headers = {}) =>
  sendTo(url, method, 'k1', body, headers);

const user = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER_SCHEMA],
  userName,
  ...extra,
});

const stores = exampleStores('bulk_http').filter((store) => store.skip === undefined);

describe.each(stores)('/Bulk on the example server ($name)', (store) => {
  const url = serveDuringTests(store);

  // A Bulk at maxOperations is 1,000 DELETEs, each a statement on PGlite or the server: seconds,
  // and more than the default 20 s on a busy machine.
  it('advertises bulk and honours exactly what it advertises', { timeout: 60_000 }, async () => {
    const spc = (await send(`${url()}/ServiceProviderConfig`, 'GET')).body.bulk;
    expect(spc).toEqual({ supported: true, maxOperations: 1000, maxPayloadSize: 1024 * 1024 });
    const ops = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ method: 'DELETE', path: `/Users/none-${i}` }));
    const atMax = await send(`${url()}/Bulk`, 'POST', {
      schemas: [BULK],
      Operations: ops(spc.maxOperations),
    });
    expect(atMax.status).toBe(200);
    expect(atMax.body.Operations).toHaveLength(spc.maxOperations);
    const over = await send(`${url()}/Bulk`, 'POST', {
      schemas: [BULK],
      Operations: ops(spc.maxOperations + 1),
    });
    expect(over.status).toBe(413);
    const huge = JSON.stringify({
      schemas: [BULK],
      Operations: [],
      pad: 'x'.repeat(spc.maxPayloadSize),
    });
    expect((await send(`${url()}/Bulk`, 'POST', huge)).status).toBe(413);
  });

  it('creates users that refer to each other in any order, and keeps what ran before a failure', async () => {
    const reply = await send(`${url()}/Bulk`, 'POST', {
      schemas: [BULK],
      Operations: [
        {
          method: 'POST',
          path: '/Users',
          bulkId: 'report',
          data: user('report@example.org', {
            schemas: [USER_SCHEMA, ENTERPRISE],
            [ENTERPRISE]: { manager: { value: 'bulkId:boss' } },
          }),
        },
        { method: 'POST', path: '/Users', bulkId: 'boss', data: user('boss@example.org') },
        {
          method: 'PATCH',
          path: '/Users/bulkId:boss',
          data: { schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: 'Boss' }] },
        },
      ],
    });
    expect(reply.status).toBe(200);
    const statuses = reply.body.Operations.map(
      (o: { bulkId?: string; status: string }) => `${o.bulkId}:${o.status}`,
    );
    expect(statuses).toEqual(['report:201', 'boss:201', 'undefined:200']);
    const boss = await send(reply.body.Operations[1].location, 'GET');
    expect(boss.body.title).toBe('Boss');
    const report = await send(reply.body.Operations[0].location, 'GET');
    expect(report.body[ENTERPRISE].manager.value).toBe(boss.body.id);
    // Halfway: what ran before the failure stays; after failOnErrors errors nothing else runs.
    const halfway = await send(`${url()}/Bulk`, 'POST', {
      schemas: [BULK],
      failOnErrors: 1,
      Operations: [
        { method: 'POST', path: '/Users', bulkId: 'kept', data: user('kept@example.org') },
        { method: 'POST', path: '/Users', bulkId: 'dup', data: user('boss@example.org') },
        { method: 'POST', path: '/Users', bulkId: 'never', data: user('never@example.org') },
      ],
    });
    expect(halfway.body.Operations.map((o: { status: string }) => o.status)).toEqual([
      '201',
      '409',
    ]);
    expect((await send(halfway.body.Operations[0].location, 'GET')).status).toBe(200);
    const never = await send(
      `${url()}/Users?filter=${encodeURIComponent('userName eq "never@example.org"')}`,
      'GET',
    );
    expect(never.body.totalResults).toBe(0);
  });

  it('answers /Me with 501: the example server maps no caller to a user', async () => {
    expect((await send(`${url()}/Me`, 'GET')).status).toBe(501);
  });
});

describe.each(everyStore)('/Me over HTTP ($name)', ({ open }) => {
  let opened: OpenedStore;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    opened = await open();
    const scim = createScim({
      store: opened.store,
      verifier: staticApiKeys([{ key: 'k1', tenant: 't1' }]),
      mailer: { sendWelcome: async () => {} },
      basePath: '/scim/v2',
      me: (_tenant, request) => {
        const who = request.headers['x-user'];
        return typeof who === 'string' ? who : null;
      },
    });
    server = createServer(scimNode(scim));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/scim/v2`;
  }, 120_000);
  afterAll(async () => {
    await new Promise((done) => server?.close(done));
    await opened?.close();
  });

  it('reads and patches the caller’s user, with Location at /Users/{id}', async () => {
    const ada = (await send(`${url}/Users`, 'POST', user('ada@example.org'))).body;
    const as = { 'x-user': ada.id };
    const got = await send(`${url}/Me`, 'GET', undefined, as);
    expect(got.status).toBe(200);
    expect(got.headers.get('location')).toBe(`${url}/Users/${ada.id}`);
    const patched = await send(
      `${url}/Me`,
      'PATCH',
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: 'Countess' }] },
      as,
    );
    expect(patched.body.title).toBe('Countess');
    expect((await send(`${url}/Me`, 'GET')).status).toBe(404);
    expect((await send(`${url}/Me`, 'DELETE', undefined, as)).status).toBe(204);
    expect((await send(`${url}/Users/${ada.id}`, 'GET')).status).toBe(404);
  });
});
