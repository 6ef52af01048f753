// The welcome subscriber reads which users of a page of invitations still exist at once: every
// invited user that exists gets one email, a user deleted before the page was read gets none,
// on every store. It tells from the log's deletions, else from a list of the users (more
// deletions than one read takes, or that read failing), else from a read of each user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WelcomeEmail } from '../../src/index.js';
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
    await scim.mail?.drain();
    expect([...mail.sent].sort()).toEqual(
      [
        'first@example.org',
        ...Array.from({ length: 8 }, (_, i) => `burst${i + 2}@example.org`),
      ].sort(),
    );
    await scim.close();
  });
});

/** Makes the log's reads of `user.deleted` alone fail, as a log that is down for them would. */
function failDeletionReads(store: MemoryUserStore): void {
  const log = store.events;
  if (log === undefined) throw new Error('the memory store keeps a log');
  const list = log.list.bind(log);
  log.list = async (query) => {
    if (query.types?.length === 1 && query.types[0] === 'user.deleted')
      throw new Error('the log is down');
    return list(query);
  };
}

describe('welcome emails when the log cannot tell which users were deleted', () => {
  it('lists the users of the page instead, and sends none to a deleted one', async () => {
    const store = new MemoryUserStore();
    failDeletionReads(store);
    const mail = gatedMailer();
    const { scim, createUser, request } = setup({ store, mail: { mailer: mail.mailer } });
    await createUser('first@example.org', { active: true });
    await mail.first;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await createUser(`listed${i}@example.org`, { active: true })).id as string);
    expect((await request('DELETE', `/Users/${ids[1]}`)).status).toBe(204);
    mail.open();
    await scim.mail?.drain();
    expect([...mail.sent].sort()).toEqual([
      'first@example.org',
      'listed0@example.org',
      'listed2@example.org',
      'listed3@example.org',
      'listed4@example.org',
    ]);
    await scim.close();
  });

  it('lists the users when more users were deleted than one read of the log takes', async () => {
    const store = new MemoryUserStore();
    const mail = gatedMailer();
    const { scim, createUser, request } = setup({ store, mail: { mailer: mail.mailer } });
    await createUser('first@example.org', { active: true });
    await mail.first;
    const invited: string[] = [];
    for (let i = 0; i < 3; i++)
      invited.push((await createUser(`kept${i}@example.org`, { active: true })).id as string);
    // Users created inactive are not invited; their deletions follow the invitations.
    for (let i = 0; i < 1_001; i++) {
      const { id } = await createUser(`gone${i}@example.org`);
      expect((await request('DELETE', `/Users/${id}`)).status).toBe(204);
    }
    expect((await request('DELETE', `/Users/${invited[0]}`)).status).toBe(204);
    mail.open();
    await scim.mail?.drain();
    expect([...mail.sent].sort()).toEqual([
      'first@example.org',
      'kept1@example.org',
      'kept2@example.org',
    ]);
    await scim.close();
  });

  it('reads each user alone when the store cannot list them either, and sends every email', async () => {
    const store = new MemoryUserStore();
    failDeletionReads(store);
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
