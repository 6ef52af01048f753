import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScim,
  ScimConfigError,
  staticApiKeys,
  type Scim,
  type UserStore,
} from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { MOUNT, type RunningServer, targets } from './harness.js';
import { expectOnlyPublicUrls, spoofedExchanges } from './spoofed-host.js';

const KEY = 'key-public-url';
// A public URL with a path prefix: a proxy publishes the service below `/gateway`.
const PUBLIC_URL = 'https://scim.example.org/gateway';
const BASE = `${PUBLIC_URL}${MOUNT}`;

function service(store: UserStore): Scim {
  return createScim({
    store,
    verifier: staticApiKeys([{ key: KEY, tenant: 'district-7' }]),
    mailer: { sendWelcome: () => Promise.resolve() },
    basePath: MOUNT,
    publicBaseUrl: PUBLIC_URL,
    me: (_tenant, request) => (request.headers['x-me'] as string | undefined) ?? null,
  });
}

describe.each(everyStore)('publicBaseUrl on $name: a spoofed Host names nothing', ({ open }) => {
  let opened: OpenedStore;
  let scim: Scim;
  let server: RunningServer;
  beforeAll(async () => {
    opened = await open();
    scim = service(opened.store);
    server = await (targets.find((t) => t.name === 'node:http') ?? targets[0])!.start(scim);
  });
  afterAll(async () => {
    await server.close();
    await scim.close();
    await opened.close();
  });

  it('builds every Location, meta.location, $ref and Bulk location from publicBaseUrl', async () => {
    expectOnlyPublicUrls(await spoofedExchanges(server.origin, KEY, 'store'), BASE);
  });
});

describe.each(targets)('publicBaseUrl on $name: a spoofed Host names nothing', (target) => {
  const scim = service(new MemoryUserStore());
  let server: RunningServer;
  beforeAll(async () => {
    server = await target.start(scim);
  });
  afterAll(async () => {
    await server.close();
    await scim.close();
  });

  it('builds every Location, meta.location, $ref and Bulk location from publicBaseUrl', async () => {
    expectOnlyPublicUrls(await spoofedExchanges(server.origin, KEY, 'target'), BASE);
  });
});

describe('publicBaseUrl: the setting itself', () => {
  const options = (publicBaseUrl: string) => ({
    store: new MemoryUserStore(),
    verifier: staticApiKeys([{ key: KEY, tenant: 'district-7' }]),
    mailer: { sendWelcome: () => Promise.resolve() },
    basePath: MOUNT,
    publicBaseUrl,
  });

  it('refuses at start a value no URL can be built from, naming it', () => {
    for (const bad of [
      'scim.example.org',
      '/gateway',
      'ftp://scim.example.org',
      'https://user:pw@scim.example.org',
      'https://scim.example.org/?tenant=1',
      'https://scim.example.org/#top',
    ]) {
      expect(() => createScim(options(bad)), bad).toThrow(ScimConfigError);
      expect(() => createScim(options(bad)), bad).toThrow(`publicBaseUrl ${JSON.stringify(bad)}`);
    }
  });

  it('builds the same URLs with or without a trailing slash', async () => {
    for (const written of [PUBLIC_URL, `${PUBLIC_URL}/`]) {
      const scim = createScim(options(written));
      const reply = await scim.handle({
        method: 'POST',
        path: `${MOUNT}/Users`,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' },
        body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'ada' },
        baseUrl: 'http://evil-host.example',
      });
      expect(reply.headers.location).toMatch(new RegExp(`^${BASE}/Users/[^/]+$`));
      await scim.close();
    }
  });
});
