// RFC 7644 §3.5.2.2: a removed attribute is unassigned. Removing `active` leaves the account
// status as it is: it neither deactivates the account nor sends or revokes anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScimEvent } from '../../src/index.js';
import { everyStore, type OpenedStore } from './every-store.js';
import { ACCOUNT, USER_SCHEMA, patchBody, setup } from './harness.js';

const removeActive = patchBody({ op: 'remove', path: 'active' });

describe.each(everyStore)('removing active, $name store', ({ open }) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  }, 120_000);
  afterAll(async () => opened?.close());

  it('answers without active, keeps the status, and a later GET and filter agree', async () => {
    const { request, createUser, scim } = setup({ store: opened.store });
    const events: ScimEvent[] = [];
    const ada = await createUser('remove-active@example.org', { active: true });
    scim.on((event) => void events.push(event));
    const reply = await request('PATCH', `/Users/${ada.id}`, { body: removeActive });
    expect(reply.status).toBe(200);
    expect(reply.body).not.toHaveProperty('active');
    expect(reply.body[ACCOUNT].status).toBe('Invited');
    const read = await request('GET', `/Users/${ada.id}`);
    expect(read.body).not.toHaveProperty('active');
    expect(read.body[ACCOUNT].status).toBe('Invited');
    const inactive = await request('GET', '/Users', {
      query: `filter=${encodeURIComponent('userName eq "remove-active@example.org" and active eq false')}`,
    });
    expect(inactive.body.totalResults).toBe(0);
    expect(events.map((e) => e.type)).toEqual(['user.updated']);
    // Its welcome subscriber would otherwise share the next case's emails on this store.
    await scim.close();
  });

  it(
    'sends no email when removed, and none when set true again on an invited account',
    { timeout: 30_000 },
    async () => {
      const { request, createUser, scim, sent } = setup({ store: opened.store });
      const events: ScimEvent[] = [];
      const ada = await createUser('remove-then-true@example.org', { active: true });
      scim.on((event) => void events.push(event));
      await request('PATCH', `/Users/${ada.id}`, { body: removeActive });
      const back = await request('PATCH', `/Users/${ada.id}`, {
        body: patchBody({ op: 'replace', path: 'active', value: true }),
      });
      expect(back.body).toMatchObject({ active: true, [ACCOUNT]: { status: 'Invited' } });
      // On a shared server a drain ends before a write that another client's open transaction
      // hides from the log (Subscription.drain), so drain until ada's email is out, then once more.
      await expect
        .poll(
          async () => {
            await scim.mail?.drain();
            return sent.some((m) => m.userId === ada.id);
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      await scim.mail?.drain();
      // One email for ada; an earlier case's, left undelivered on this store, may come too.
      expect(sent.filter((m) => m.userId === ada.id)).toHaveLength(1);
      expect(events.map((e) => e.type)).toEqual(['user.updated', 'user.updated']);
      await scim.close();
    },
  );

  it('a deactivated account stays deactivated, and set true later is reactivated', async () => {
    const { request, createUser, scim } = setup({ store: opened.store });
    const events: ScimEvent[] = [];
    const ada = await createUser('deactivated-remove@example.org', { active: true });
    await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    scim.on((event) => void events.push(event));
    const removed = await request('PATCH', `/Users/${ada.id}`, { body: removeActive });
    expect(removed.body[ACCOUNT].status).toBe('Deactivated');
    const back = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: true }),
    });
    expect(back.body[ACCOUNT].status).toBe('Invited');
    expect(events.map((e) => e.type)).toEqual(['user.updated', 'user.updated', 'user.reactivated']);
  });

  it('a PUT without active keeps it unassigned; a PUT with active false deactivates', async () => {
    const { request, createUser } = setup({ store: opened.store });
    const ada = await createUser('put-unassigned@example.org', { active: true });
    await request('PATCH', `/Users/${ada.id}`, { body: removeActive });
    const body = { schemas: [USER_SCHEMA], userName: 'put-unassigned@example.org' };
    const kept = await request('PUT', `/Users/${ada.id}`, { body });
    expect(kept.body).not.toHaveProperty('active');
    expect(kept.body[ACCOUNT].status).toBe('Invited');
    const off = await request('PUT', `/Users/${ada.id}`, { body: { ...body, active: false } });
    expect(off.body).toMatchObject({ active: false, [ACCOUNT]: { status: 'Deactivated' } });
  });
});
