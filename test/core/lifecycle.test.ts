import { describe, expect, it } from 'vitest';
import type { ScimEvent } from '../../src/index.js';
import { ACCOUNT, USER_SCHEMA, patchBody, setup } from './harness.js';

const deactivate = patchBody({ op: 'replace', path: 'active', value: false });
const reactivate = patchBody({ op: 'replace', path: 'active', value: true });

describe('account status and the welcome email', () => {
  it('Invited → Activated through the host API on first login; calling again changes nothing', async () => {
    const { scim, createUser, request } = setup();
    const user = await createUser('ada@example.org', { active: true });
    const activated = await scim.users.activate('tenant-a', user.id);
    expect(activated?.[ACCOUNT]).toMatchObject({
      status: 'Activated',
      activatedAt: expect.any(String),
    });
    const again = await scim.users.activate('tenant-a', user.id);
    expect(again?.meta.version).toBe(activated?.meta.version);
    expect((await request('GET', `/Users/${user.id}`)).body[ACCOUNT].status).toBe('Activated');
  });

  it('activate is scoped to the tenant and does not activate a Pending user', async () => {
    const { scim, createUser } = setup();
    const invited = await createUser('ada@example.org', { active: true });
    expect(await scim.users.activate('tenant-b', invited.id)).toBeNull();
    const pending = await createUser('grace@example.org');
    expect((await scim.users.activate('tenant-a', pending.id))?.[ACCOUNT].status).toBe('Pending');
  });

  it('reactivation returns to Activated when the person had logged in', async () => {
    const { scim, createUser, request } = setup();
    const user = await createUser('ada@example.org', { active: true });
    await scim.users.activate('tenant-a', user.id);
    expect(
      (await request('PATCH', `/Users/${user.id}`, { body: deactivate })).body[ACCOUNT].status,
    ).toBe('Deactivated');
    expect(
      (await request('PATCH', `/Users/${user.id}`, { body: reactivate })).body[ACCOUNT].status,
    ).toBe('Activated');
  });

  it('reactivation returns to Invited without a second email when the person never logged in', async () => {
    const { scim, sent, createUser, request } = setup();
    const user = await createUser('ada@example.org', { active: true });
    await request('PATCH', `/Users/${user.id}`, { body: deactivate });
    const back = await request('PATCH', `/Users/${user.id}`, { body: reactivate });
    expect(back.body[ACCOUNT].status).toBe('Invited');
    await scim.mail?.drain();
    expect(sent).toHaveLength(1);
  });

  it('a Pending user made active later becomes Invited and gets the email then, once', async () => {
    const { scim, sent, createUser, request } = setup();
    const user = await createUser('ada@example.org');
    await scim.mail?.drain();
    expect(sent).toHaveLength(0);
    const on = await request('PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    expect(on.body[ACCOUNT].status).toBe('Invited');
    await request('PATCH', `/Users/${user.id}`, { body: deactivate });
    await request('PATCH', `/Users/${user.id}`, { body: reactivate });
    await scim.mail?.drain();
    expect(sent.map((m) => m.userId)).toEqual([user.id]);
  });

  it('sends the welcome email once however often the user is deactivated and reactivated: the account status says it went out', async () => {
    const { scim, sent, createUser, request } = setup();
    const user = await createUser('ada@example.org', { active: true });
    await scim.mail?.drain();
    expect(sent.map((m) => m.userId)).toEqual([user.id]);
    await request('PATCH', `/Users/${user.id}`, { body: deactivate });
    await request('PATCH', `/Users/${user.id}`, { body: reactivate });
    await request('PATCH', `/Users/${user.id}`, { body: deactivate });
    const back = await request('PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    expect(back.body[ACCOUNT].status).toBe('Invited');
    await scim.mail?.drain();
    expect(sent).toHaveLength(1);
  });

  it('resendInvitation sends another email with a new idempotency key, only while Invited', async () => {
    const { scim, sent, createUser } = setup();
    const user = await createUser('ada@example.org', { active: true });
    expect(await scim.users.resendInvitation('tenant-a', user.id)).toBe(true);
    await scim.mail?.drain();
    expect(sent).toHaveLength(2);
    expect(sent[0]?.idempotencyKey).not.toBe(sent[1]?.idempotencyKey);
    await scim.users.activate('tenant-a', user.id);
    expect(await scim.users.resendInvitation('tenant-a', user.id)).toBe(false);
  });

  it('a failing mailer never fails the request, and the email is retried until delivered once', async () => {
    let calls = 0;
    const delivered: string[] = [];
    const { request, scim } = setup({
      mailer: {
        async sendWelcome(email) {
          calls++;
          if (calls <= 3) throw new Error('SMTP down');
          delivered.push(email.idempotencyKey);
        },
      },
      mail: { delivery: { backoff: { initialMs: 1, maxMs: 5 } } },
      onError: () => undefined,
    });
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    expect(reply.status).toBe(201);
    await expect.poll(() => delivered.length, { timeout: 10_000 }).toBe(1);
    expect(calls).toBe(4);
    await scim.close();
  });

  it('emits lifecycle events with a before/after diff', async () => {
    const { scim, createUser, request } = setup();
    const events: ScimEvent[] = [];
    scim.on((e) => events.push(e));
    const user = await createUser('ada@example.org', { active: true });
    await request('PATCH', `/Users/${user.id}`, { body: deactivate });
    await request('PATCH', `/Users/${user.id}`, { body: reactivate });
    await scim.users.activate('tenant-a', user.id);
    await request('DELETE', `/Users/${user.id}`);
    expect(events.map((e) => e.type)).toEqual([
      'user.created',
      'user.invited',
      'user.updated',
      'user.deactivated',
      'user.updated',
      'user.reactivated',
      'user.activated',
      'user.deleted',
    ]);
    const update = events[2];
    expect(update?.type === 'user.updated' && update.changed).toEqual(['active']);
  });
});
