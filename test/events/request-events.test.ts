import { describe, expect, it } from 'vitest';
import { REDACTED, type RequestCompletedEvent } from '../../src/index.js';
import { ACCOUNT, BASE, KEY_B, PATCH_SCHEMA, USER_SCHEMA, setup } from '../core/harness.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';

function listening() {
  const harness = setup();
  const events: RequestCompletedEvent[] = [];
  harness.scim.onRequest((event) => events.push(event));
  return { ...harness, events };
}

describe('request.completed', () => {
  it('reports a POST with its tenant, status, latency, redacted body and the stored user', async () => {
    const { createUser, events } = listening();
    const user = await createUser('ada@example.org', { password: 'hunter2', active: 'True' });
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event).toMatchObject({
      type: 'request.completed',
      tenant: 'tenant-a',
      method: 'POST',
      path: `${BASE}/Users`,
      status: 201,
      before: undefined,
    });
    expect(event!.latencyMs).toBeGreaterThanOrEqual(0);
    expect(event!.after?.id).toBe(user.id);
    expect(event!.body).toMatchObject({ userName: 'ada@example.org', password: REDACTED });
    const serialised = JSON.stringify(event);
    expect(serialised).not.toContain('hunter2');
    expect(serialised).toContain('"password":"[redacted]"');
    expect(serialised).toContain('"rule":"stringBooleans"');
    expect(event!.normalisations).toEqual([
      { rule: 'stringBooleans', path: 'active', received: 'True', stored: true },
    ]);
  });

  it('reports a PATCH with before, after and each normalisation the dialect rules applied', async () => {
    const { createUser, request, events } = listening();
    const user = await createUser('grace@example.org', { active: true });
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: {
        schemas: [PATCH_SCHEMA],
        Operations: [
          { op: 'Replace', path: 'active', value: 'False' },
          { op: 'add', path: `${ENTERPRISE}:manager`, value: 'boss-1' },
          { op: 'replace', path: 'DisplayName', value: 'Grace' },
          { op: 'replace', path: 'password', value: 'topsecret' },
          {
            op: 'add',
            path: 'roles',
            value: [{ value: '{"value":"Admin","primary":"True"}' }],
          },
        ],
      },
    });
    expect(reply.status).toBe(200);
    const event = events.at(-1)!;
    expect(event.method).toBe('PATCH');
    expect(event.before?.active).toBe(true);
    expect(event.after?.active).toBe(false);
    expect(event.after?.[ACCOUNT].status).toBe('Deactivated');
    expect(JSON.stringify(event.body)).not.toContain('topsecret');
    expect(event.normalisations).toEqual(
      expect.arrayContaining([
        { rule: 'stringBooleans', path: 'Operations[0].value', received: 'False', stored: false },
        {
          rule: 'managerString',
          path: 'Operations[1].value',
          received: 'boss-1',
          stored: { value: 'boss-1' },
        },
        {
          rule: 'canonicalName',
          path: 'Operations[2]',
          received: 'DisplayName',
          stored: 'displayName',
        },
        expect.objectContaining({ rule: 'jsonEncodedValues', path: 'Operations[4].value[0]' }),
      ]),
    );
  });

  it('names a member of a POST body spelled in another case', async () => {
    const { createUser, events } = listening();
    await createUser('lin@example.org', { UserType: 'Student', [ENTERPRISE]: { Department: 'x' } });
    const names = events[0]!.normalisations.map((n) => `${n.rule} ${n.path}`);
    expect(names).toEqual(['canonicalName userType', `canonicalName ${ENTERPRISE}.department`]);
  });

  it('carries no tenant for an unauthenticated request, and none of its headers', async () => {
    const { request, events } = listening();
    const reply = await request('GET', '/Users', { key: null });
    expect(reply.status).toBe(401);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ tenant: undefined, status: 401, method: 'GET' });
    // The 401's own detail tells the client to send a key; nothing else names the header.
    const { error, ...rest } = JSON.parse(JSON.stringify(events[0])) as Record<string, unknown>;
    expect(error).toEqual({ detail: (reply.body as { detail: string }).detail });
    expect(JSON.stringify(rest)).not.toMatch(/authorization|Bearer/i);
  });

  it('reports refusals of the head phase with the tenant (404 outside the routes)', async () => {
    const { request, events } = listening();
    expect((await request('GET', '/Nope', { key: KEY_B })).status).toBe(404);
    expect(events[0]).toMatchObject({ tenant: 'tenant-b', status: 404 });
  });

  it('reports requests run in two phases, a body that timed out included', async () => {
    const { scim, events } = listening();
    const head = {
      method: 'POST',
      path: `${BASE}/Users`,
      headers: { authorization: 'Bearer key-tenant-a', 'content-type': 'application/scim+json' },
      baseUrl: 'https://scim.example.org',
    };
    const admitted = await scim.begin(head);
    expect(typeof admitted).toBe('function');
    if (typeof admitted !== 'function') return;
    expect((await admitted(undefined, 'timeout')).status).toBe(408);
    expect(events).toEqual([
      expect.objectContaining({ tenant: 'tenant-a', method: 'POST', status: 408, body: undefined }),
    ]);
  });

  it('gives the size of the body as received, in bytes, without parsing it', async () => {
    const { scim, events } = listening();
    const body = JSON.stringify({ schemas: [USER_SCHEMA], userName: 'é@example.org' });
    await scim.handle({
      method: 'POST',
      path: `${BASE}/Users`,
      headers: { authorization: `Bearer ${KEY_B}`, 'content-type': 'application/scim+json' },
      body,
    });
    await scim.handle({
      method: 'POST',
      path: `${BASE}/Users`,
      headers: { authorization: `Bearer ${KEY_B}`, 'content-type': 'application/scim+json' },
      body: new TextEncoder().encode(body),
    });
    expect(events.map((e) => e.bodyBytes)).toEqual([
      Buffer.byteLength(body),
      Buffer.byteLength(body),
    ]);
  });

  it('builds nothing while nobody listens, and stops with the last listener', async () => {
    const { scim, createUser } = setup();
    const seen: RequestCompletedEvent[] = [];
    await createUser('before@example.org');
    const off = scim.onRequest((event) => seen.push(event));
    await createUser('during@example.org');
    off();
    await createUser('after@example.org');
    expect(seen.map((e) => (e.body as { userName: string }).userName)).toEqual([
      'during@example.org',
    ]);
  });

  it('keeps a throwing listener from failing the request', async () => {
    const errors: unknown[] = [];
    const { scim, createUser } = setup({ onError: (error) => errors.push(error) });
    scim.onRequest(() => {
      throw new Error('listener broke');
    });
    await expect(createUser('kim@example.org')).resolves.toBeDefined();
    expect(errors).toHaveLength(1);
  });

  it('stops after unsubscribing, and the onRequest option listens from the start', async () => {
    const seen: RequestCompletedEvent[] = [];
    const { scim, createUser } = setup({ onRequest: (event) => seen.push(event) });
    const extra: RequestCompletedEvent[] = [];
    const off = scim.onRequest((event) => extra.push(event));
    await createUser('a@example.org');
    off();
    await createUser('b@example.org');
    expect(seen).toHaveLength(2);
    expect(extra).toHaveLength(1);
    expect(seen[1]!.body).toMatchObject({ schemas: [USER_SCHEMA], userName: 'b@example.org' });
  });
});
