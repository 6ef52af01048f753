// The welcome email is a durable subscriber of `user.invited` events (`scim.mail`): sent once
// per invitation with the event's id as idempotency key, retried after a mailer failure under
// the same key, never sent to a user deleted before delivery, given up as a dead letter after
// its last attempt, and sent again (under a new key) on `resendInvitation`. On every store.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Scim, ScimOptions, WelcomeEmail } from '../../src/index.js';
import { everyStore, type OpenedStore } from './every-store.js';
import { setup } from './harness.js';

// Each case may drain for up to 15 s on a shared server (see `drainUntil`).
describe.each(everyStore)(
  'the welcome subscriber on the $name store',
  { timeout: 40_000 },
  ({ open }) => {
    let opened: OpenedStore;
    beforeAll(async () => {
      opened = await open();
    }, 120_000);
    afterAll(async () => opened?.close());
    // Each case's service stops, so that no other case's subscriber sends its emails.
    const services: Scim[] = [];
    afterEach(async () => {
      await Promise.all(services.splice(0).map((scim) => scim.close()));
    });
    let cases = 0;

    // On a shared server the log shows a write once every older transaction (another test
    // file's) has ended: drain until what a case waits for has been delivered.
    async function drainUntil(scim: Scim, delivered: () => boolean): Promise<void> {
      await expect
        .poll(
          async () => {
            await scim.mail?.drain();
            return delivered();
          },
          { timeout: 15_000 },
        )
        .toBe(true);
    }

    // A service on the shared store, in a tenant of its own, with a mailer that records each try.
    function service(
      mailer?: (email: WelcomeEmail) => Promise<void>,
      extra: Partial<ScimOptions> = {},
    ) {
      const tries: WelcomeEmail[] = [];
      const errors: unknown[] = [];
      const harness = setup({
        store: opened.store,
        mailer: {
          async sendWelcome(email) {
            tries.push(email);
            await mailer?.(email);
          },
        },
        onError: (error) => errors.push(error),
        ...extra,
      });
      services.push(harness.scim);
      cases += 1;
      const name = (who: string) => `${who}-${cases}@example.org`;
      return { ...harness, tries, errors, name };
    }

    it('sends one email per invitation, keyed by the user.invited event, and none again', async () => {
      const { scim, tries, createUser, name } = service();
      const ada = await createUser(name('ada'), { active: true });
      await drainUntil(scim, () => tries.length > 0);
      await scim.mail?.drain();
      expect(tries.map((e) => [e.userId, e.to])).toEqual([[ada.id, name('ada')]]);
      const invited = await scim.events.list('tenant-a', { types: ['user.invited'] });
      const event = invited.events.find((e) => e.data.id === ada.id);
      expect(tries[0]?.idempotencyKey).toBe(event?.id);
      const attempts = await scim.mail?.attempts({ tenant: 'tenant-a', eventId: event?.id ?? '' });
      expect(attempts?.attempts.map((a) => [a.status, a.attempt])).toEqual([['ok', 1]]);
    });

    it('retries after a mailer failure under the same idempotency key, never failing the request', async () => {
      let failures = 2;
      const { scim, tries, createUser, name } = service(
        async () => {
          if (failures-- > 0) throw new Error('SMTP 451');
        },
        { mail: { delivery: { backoff: { initialMs: 1, maxMs: 5 } } } },
      );
      const ada = await createUser(name('ada'), { active: true });
      await expect.poll(() => tries.length, { timeout: 15_000 }).toBe(3);
      await scim.mail?.drain();
      expect(tries).toHaveLength(3);
      expect(new Set(tries.map((e) => e.idempotencyKey)).size).toBe(1);
      expect(tries.every((e) => e.userId === ada.id)).toBe(true);
      const page = await scim.mail?.attempts({ tenant: 'tenant-a', eventId: tries[0]!.id });
      expect(page?.attempts.map((a) => [a.attempt, a.status, a.error])).toEqual([
        [3, 'ok', undefined],
        [2, 'failed', 'Error: SMTP 451'],
        [1, 'failed', 'Error: SMTP 451'],
      ]);
    });

    it('sends nothing to a user deleted before delivery', async () => {
      // Invited and deleted on a service whose subscriber does not run, as when delivery is behind.
      const quiet = setup({ store: opened.store, mailer: { sendWelcome: async () => undefined } });
      services.push(quiet.scim);
      await quiet.scim.mail?.stop();
      const gone = await quiet.createUser(`gone-${cases}@example.org`, { active: true });
      expect((await quiet.request('DELETE', `/Users/${gone.id}`)).status).toBe(204);
      const { scim, tries, createUser, name } = service();
      const kept = await createUser(name('kept'), { active: true });
      await drainUntil(scim, () => tries.some((e) => e.userId === kept.id));
      expect(tries.map((e) => e.userId)).not.toContain(gone.id);
    });

    it('gives an email up as a dead letter after its last attempt, and sends it again on retry', async () => {
      let down = true;
      const { scim, tries, createUser, name } = service(
        async () => {
          if (down) throw new Error('no such mailbox');
        },
        { mail: { delivery: { maxAttempts: 2, backoff: { initialMs: 1, maxMs: 1 } } } },
      );
      const ada = await createUser(name('ada'), { active: true });
      await expect
        .poll(async () => (await scim.mail?.deadLetters({ tenant: 'tenant-a' }))?.length, {
          timeout: 15_000,
        })
        .toBe(1);
      const [letter] = (await scim.mail?.deadLetters({ tenant: 'tenant-a' })) ?? [];
      expect(letter).toMatchObject({
        state: 'dead',
        attempts: 2,
        error: 'Error: no such mailbox',
        event: { type: 'user.invited', data: { id: ada.id } },
      });
      down = false;
      expect(await scim.mail?.retry({ tenant: 'tenant-a' })).toBe(1);
      await drainUntil(scim, () => tries.length > 2);
      expect(tries.map((e) => e.idempotencyKey)).toEqual([
        letter?.event.id,
        letter?.event.id,
        letter?.event.id,
      ]);
      expect(await scim.mail?.deadLetters({ tenant: 'tenant-a' })).toEqual([]);
    });

    it('sends the email again on resendInvitation, under a new idempotency key', async () => {
      const { scim, tries, createUser, name } = service();
      const ada = await createUser(name('ada'), { active: true });
      await drainUntil(scim, () => tries.length > 0);
      expect(await scim.users.resendInvitation('tenant-a', ada.id)).toBe(true);
      await drainUntil(scim, () => tries.length > 1);
      expect(tries.map((e) => e.userId)).toEqual([ada.id, ada.id]);
      expect(tries[0]?.idempotencyKey).not.toBe(tries[1]?.idempotencyKey);
    });
  },
);

describe('the welcome delivery options', () => {
  const failing = { sendWelcome: async () => Promise.reject(new Error('SMTP 451')) };

  it('take the deprecated mail.outbox (and flat outbox) under their former names', async () => {
    for (const options of [
      { mail: { mailer: failing, outbox: { maxAttempts: 1 } } },
      { mailer: failing, outbox: { maxAttempts: 1 } },
    ] satisfies Partial<ScimOptions>[]) {
      const { scim, createUser } = setup({ ...options, onError: () => undefined });
      await createUser('ada@example.org', { active: true });
      await scim.mail?.drain();
      // One attempt, then given up: maxAttempts 1 reached the subscriber.
      const letters = await scim.mail?.deadLetters();
      expect(letters?.map((l) => [l.attempts, l.error])).toEqual([[1, 'Error: SMTP 451']]);
      await scim.close();
    }
  });

  it('refuse mail.delivery beside mail.outbox, and name mail.delivery for an option that cannot work', () => {
    const mailer = { sendWelcome: async () => undefined };
    expect(() =>
      setup({
        mail: { mailer, delivery: { maxAttempts: 2 }, outbox: { maxAttempts: 2 } },
      }),
    ).toThrow(/mail\.delivery and mail\.outbox \(or outbox\) are both given/);
    expect(() => setup({ mail: { mailer, delivery: { leaseMs: 1000, timeoutMs: 1000 } } })).toThrow(
      'createScim: mail.delivery: leaseMs (1000) must be at least twice timeoutMs (1000)',
    );
    expect(() => setup({ mail: { mailer, delivery: { maxAttempts: 0 } } })).toThrow(
      /^createScim: mail\.delivery: maxAttempts must be/,
    );
  });
});
