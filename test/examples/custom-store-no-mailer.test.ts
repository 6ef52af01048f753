// A host that sends no welcome email: no mailer, and a custom store with no event log
// (examples/custom-store/map-user-store.ts). Statuses move as with a mailer; nothing is sent.
import { describe, expect, it } from 'vitest';
import { createScim, ScimConfigError, staticApiKeys, type ScimEvent } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { MapUserStore } from '../../examples/custom-store/map-user-store.js';
import {
  ACCOUNT,
  BASE,
  KEY_A,
  ORIGIN,
  PATCH_SCHEMA,
  SCIM_JSON,
  USER_SCHEMA,
} from '../core/harness.js';

const verifier = staticApiKeys([{ key: KEY_A, tenant: 'tenant-a' }]);

function serve(store: MapUserStore | MemoryUserStore) {
  const scim = createScim({ store, verifier, basePath: BASE });
  const request = async (method: string, target: string, body?: unknown) => {
    const [path, query = ''] = target.split('?');
    const reply = await scim.handle({
      method,
      path: `${BASE}${path}`,
      query,
      headers: {
        accept: SCIM_JSON,
        authorization: `Bearer ${KEY_A}`,
        ...(body === undefined ? {} : { 'content-type': SCIM_JSON }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      baseUrl: ORIGIN,
    });
    return { status: reply.status, body: reply.body ? JSON.parse(reply.body) : undefined };
  };
  return { scim, request };
}

describe('a service without a mailer', () => {
  it('runs on a store with no event log: statuses move as they would, no email is asked for', async () => {
    const { scim, request } = serve(new MapUserStore());
    const events: ScimEvent[] = [];
    scim.on((event) => void events.push(event));
    const created = await request('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: 'ada@example.org',
      active: true,
    });
    expect([created.status, created.body[ACCOUNT].status]).toEqual([201, 'Invited']);
    const id = created.body.id as string;
    expect(scim.mail).toBeUndefined();
    expect(await scim.users.resendInvitation('tenant-a', id)).toBe(false);
    expect((await scim.users.activate('tenant-a', id))?.[ACCOUNT].status).toBe('Activated');
    const off = await request('PATCH', `/Users/${id}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect([off.status, off.body[ACCOUNT].status]).toEqual([200, 'Deactivated']);
    const found = await request(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "ADA@example.org"')}`,
    );
    expect(found.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);
    expect(events.map((e) => e.type)).toEqual([
      'user.created',
      'user.activated',
      'user.updated',
      'user.deactivated',
    ]);
    await scim.close();
  });

  it('records no user.invited event on a store that has an event log', async () => {
    const store = new MemoryUserStore();
    const { request } = serve(store);
    const created = await request('POST', '/Users', {
      schemas: [USER_SCHEMA],
      userName: 'grace@example.org',
      active: true,
    });
    expect(created.body[ACCOUNT].status).toBe('Invited');
    const page = await store.events?.list({ tenant: 'tenant-a', limit: 10 });
    expect(page?.events.map((e) => e.type)).toEqual(['user.created']);
  });

  it('a mailer with a store that has no event log is refused at start, naming what is missing', () => {
    const mailer = { async sendWelcome() {} };
    expect(() => createScim({ store: new MapUserStore(), verifier, mailer })).toThrow(
      ScimConfigError,
    );
    expect(() => createScim({ store: new MapUserStore(), verifier, mailer })).toThrow(
      'createScim: missing store.events, store.subscriptions (a mailer sends from the event log through a durable subscriber; leave `mail.mailer` out to send no email).',
    );
  });
});
