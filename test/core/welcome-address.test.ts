// Issue 12 item 4: nothing assumes a userName is an email address. The welcome email goes to
// the userName when it is one, else to the primary (or first) address of `emails`, else it is
// not queued and the host hears of it.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, USER_SCHEMA, patchBody, setup } from './harness.js';

describe('the welcome email with the RFC userName rule', () => {
  const invited = async (userName: string, extra: Record<string, unknown>) => {
    const errors: unknown[] = [];
    const h = setup({ userNameRule: 'rfc', onError: (error) => errors.push(error) });
    const reply = await h.request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName, active: true, ...extra },
    });
    expect(reply.status).toBe(201);
    expect(reply.body[ACCOUNT].status).toBe('Invited');
    await h.scim.mail?.drain();
    return { ...h, user: reply.body, errors };
  };

  it('goes to the userName when it is an address, even beside other emails', async () => {
    const { sent } = await invited('ada@example.org', {
      emails: [{ value: 'ada@home.example', primary: true }],
    });
    expect(sent.map((email) => email.to)).toEqual(['ada@example.org']);
  });

  it('goes to the primary email when the userName is not an address, else to the first', async () => {
    const primary = await invited('jdoe', {
      emails: [{ value: 'j@home.example' }, { value: 'j@work.example', primary: true }],
    });
    expect(primary.sent.map((email) => email.to)).toEqual(['j@work.example']);
    const first = await invited('jdoe', {
      emails: [{ value: 'j@home.example' }, { value: 'j@work.example' }],
    });
    expect(first.sent.map((email) => email.to)).toEqual(['j@home.example']);
    expect([...primary.errors, ...first.errors]).toEqual([]);
  });

  it('is not queued without an address: the account is Invited, onError names the user', async () => {
    const { sent, errors, user, scim } = await invited('jdoe', {
      emails: [{ value: 'not an address', primary: true }],
    });
    expect(sent).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(
      new RegExp(`No welcome email for user "${user.id}" of tenant "tenant-a"`),
    );
    // A resend has nowhere to go either, and says so.
    expect(await scim.users.resendInvitation('tenant-a', user.id)).toBe(false);
    await scim.mail?.drain();
    expect(sent).toEqual([]);
  });

  it('a later first activation by PATCH queues it to the address the user has then', async () => {
    const h = setup({ userNameRule: 'rfc' });
    const user = await h.createUser('jdoe', { emails: [{ value: 'j@work.example' }] });
    const reply = await h.request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: true }),
    });
    expect(reply.body[ACCOUNT].status).toBe('Invited');
    await h.scim.mail?.drain();
    expect(h.sent.map((email) => email.to)).toEqual(['j@work.example']);
    expect(await h.scim.users.resendInvitation('tenant-a', user.id)).toBe(true);
    await h.scim.mail?.drain();
    expect(h.sent.map((email) => email.to)).toEqual(['j@work.example', 'j@work.example']);
  });
});
