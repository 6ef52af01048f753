// The welcome subscriber reads which users of a page of invitations still exist at once: every
// invited user that exists gets one email, a user deleted before the page was read gets none,
// on every store, and a store whose list fails still sends each email after a read of its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scim, WelcomeEmail } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { everyStore, type OpenedStore } from './every-store.js';
import { setup } from './harness.js';

/** A mailer that records each address, and holds its first send until `open()`. */
function gatedMailer() {
  const sent: string[] = [];
  let open = () => {};
  let firstCalled = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const first = new Promise<void>((resolve) => (firstCalled = resolve));
  return {
    sent,
    open: () => open(),
    first,
    mailer: {
      async sendWelcome(email: WelcomeEmail) {
        if (sent.length === 0) {
          firstCalled();
          await gate;
        }
        sent.push(email.to);
      },
    },
  };
}

/** Drains until `count` emails went: a shared server's log shows a write once older transactions end. */
async function drainUntilSent(scim: Scim, sent: readonly string[], count: number): Promise<void> {
  await expect
    .poll(
      async () => {
        await scim.mail?.drain();
        return sent.length;
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(count);
}

describe.each(everyStore)('welcome emails of a burst on $name', ({ open }) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  }, 60_000);
  afterAll(() => opened?.close());

  it('sends one email per invited user that exists, none to one deleted before its page', async () => {
    const mail = gatedMailer();
    const { scim, createUser, request } = setup({
      store: opened.store,
      mail: { mailer: mail.mailer },
    });
    await createUser('first@example.org', { active: true });
    // The first email is being sent: what follows waits for a page of its own.
    await mail.first;
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await createUser(`burst${i}@example.org`, { active: true })).id as string);
    for (const id of ids.slice(0, 2))
      expect((await request('DELETE', `/Users/${id}`)).status).toBe(204);
    mail.open();
    await drainUntilSent(scim, mail.sent, 9);
    await scim.mail?.drain();
    expect([...mail.sent].sort()).toEqual(
      [
        'first@example.org',
        ...Array.from({ length: 8 }, (_, i) => `burst${i + 2}@example.org`),
      ].sort(),
    );
    await scim.close();
  });

  it('sends one email per invited user of a burst with no deletion', async () => {
    const mail = gatedMailer();
    const { scim, createUser } = setup({ store: opened.store, mail: { mailer: mail.mailer } });
    await createUser('whole-first@example.org', { active: true });
    await mail.first;
    for (let i = 0; i < 6; i++) await createUser(`whole${i}@example.org`, { active: true });
    mail.open();
    await drainUntilSent(scim, mail.sent, 7);
    await scim.mail?.drain();
    expect([...mail.sent].sort()).toEqual(
      [
        'whole-first@example.org',
        ...Array.from({ length: 6 }, (_, i) => `whole${i}@example.org`),
      ].sort(),
    );
    await scim.close();
  });
});

describe('welcome emails when the store cannot list the page', () => {
  it('reads each user alone and sends every email', async () => {
    const store = new MemoryUserStore();
    store.list = async () => {
      throw new Error('list is down');
    };
    const mail = gatedMailer();
    const { scim, createUser } = setup({ store, mail: { mailer: mail.mailer } });
    await createUser('first@example.org', { active: true });
    await mail.first;
    for (let i = 0; i < 5; i++) await createUser(`alone${i}@example.org`, { active: true });
    mail.open();
    await scim.mail?.drain();
    expect(mail.sent).toHaveLength(6);
    await scim.close();
  });
});
