import type { OutboxMessage, PendingOutboxMessage } from '../../contracts/outbox.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';

const LEASE = 60_000;

/** Claims at `offset` ms into the case with a one-minute lease. */
function claim({ store, at }: StoreTestContext, offset: number, limit = 100) {
  return store.outbox.claim(at(offset), at(offset + LEASE), limit);
}

const ids = (messages: readonly { id: string }[]) => messages.map((m) => m.id).sort();

/** Creates a user with one welcome message and returns the message. */
async function userWithMessage(ctx: StoreTestContext): Promise<OutboxMessage> {
  const user = ctx.users.make({ active: true });
  const message = ctx.users.message(user);
  await ctx.store.create(ctx.tenant, user, { outbox: [message] });
  return message;
}

/** The welcome-email outbox: written with the user, claimed under a lease, settled once. */
export const outboxCases: readonly StoreConformanceCase[] = [
  {
    id: 'outbox.written-with-create',
    title: 'a message given to create is claimable, every field kept, with no attempts yet',
    async run(ctx) {
      const message = await userWithMessage(ctx);
      const claimed = await claim(ctx, 0);
      const expected: PendingOutboxMessage = { ...message, attempts: 0 };
      check.deepEqual(claimed, [expected], 'claimed messages');
    },
  },
  {
    id: 'outbox.written-with-replace',
    title: 'a message given to a successful replace is claimable',
    async run(ctx) {
      const { store, tenant, users } = ctx;
      const user = users.make();
      await store.create(tenant, user);
      const message = users.message(user);
      await store.replace(tenant, users.next(user, { active: true }), {
        expectedVersion: user.meta.version,
        outbox: [message],
      });
      check.deepEqual(ids(await claim(ctx, 0)), [message.id], 'claimed ids');
    },
  },
  {
    id: 'outbox.not-written-when-the-write-fails',
    title:
      'messages of a create or replace that failed (uniqueness, version, missing user) are not recorded',
    async run(ctx) {
      const { store, tenant, users } = ctx;
      const ada = users.make({ userName: 'ada@example.org' });
      await store.create(tenant, ada);
      const twin = users.make({ userName: 'ADA@example.org', active: true });
      await check.rejects(
        store.create(tenant, twin, { outbox: [users.message(twin)] }),
        409,
        'uniqueness',
        'create',
      );
      const stale = users.next(ada, { active: true });
      await check.rejects(
        store.replace(tenant, stale, { expectedVersion: 'W/"0"', outbox: [users.message(ada)] }),
        412,
        undefined,
        'replace',
      );
      const ghost = users.make({ active: true });
      await store.replace(tenant, users.next(ghost), {
        expectedVersion: ghost.meta.version,
        outbox: [users.message(ghost)],
      });
      check.deepEqual(await claim(ctx, 0), [], 'claimed messages');
    },
  },
  {
    id: 'outbox.lease-hides-a-claimed-message',
    title:
      'a claimed message is hidden until its lease ends, then claimable again (a crashed sender)',
    async run(ctx) {
      const message = await userWithMessage(ctx);
      check.deepEqual(ids(await claim(ctx, 0)), [message.id], 'first claim');
      check.deepEqual(await claim(ctx, 1_000), [], 'claim during the lease');
      check.deepEqual(ids(await claim(ctx, LEASE + 1)), [message.id], 'claim after the lease');
    },
  },
  {
    id: 'outbox.complete-is-final',
    title: 'a completed message is never claimed again',
    async run(ctx) {
      const message = await userWithMessage(ctx);
      await claim(ctx, 0);
      await ctx.store.outbox.complete(message.id, ctx.at(10));
      check.deepEqual(await claim(ctx, 10 * LEASE), [], 'claim after complete');
    },
  },
  {
    id: 'outbox.fail-with-retry-reschedules',
    title: 'a failure with retryAt makes the message due again at that time, counting the attempt',
    async run(ctx) {
      const message = await userWithMessage(ctx);
      await claim(ctx, 0);
      await ctx.store.outbox.fail(message.id, 'SMTP 451', ctx.at(5_000));
      check.deepEqual(await claim(ctx, 4_000), [], 'claim before retryAt');
      check.deepEqual(await claim(ctx, 5_000), [{ ...message, attempts: 1 }], 'claim at retryAt');
      await ctx.store.outbox.fail(message.id, 'SMTP 451', ctx.at(9_000));
      check.deepEqual(
        await claim(ctx, 9_000),
        [{ ...message, attempts: 2 }],
        'claim after two failures',
      );
    },
  },
  {
    id: 'outbox.fail-without-retry-is-final',
    title: 'a failure without retryAt is final: the message is never claimed again',
    async run(ctx) {
      const message = await userWithMessage(ctx);
      await claim(ctx, 0);
      await ctx.store.outbox.fail(message.id, 'mailbox does not exist', undefined);
      check.deepEqual(await claim(ctx, 10 * LEASE), [], 'claim after a final failure');
    },
  },
  {
    id: 'outbox.claim-respects-limit',
    title: 'claim returns at most limit messages, and the next claim returns the others',
    async run(ctx) {
      const messages = [
        await userWithMessage(ctx),
        await userWithMessage(ctx),
        await userWithMessage(ctx),
      ];
      const first = await claim(ctx, 0, 2);
      check.equal(first.length, 2, 'messages in the first claim');
      const second = await claim(ctx, 0, 2);
      check.deepEqual(ids([...first, ...second]), ids(messages), 'ids over both claims');
    },
  },
  {
    id: 'outbox.concurrent-claims-are-disjoint',
    title: 'concurrent claims never hand out the same message twice',
    async run(ctx) {
      const messages = [];
      for (let i = 0; i < 6; i++) messages.push(await userWithMessage(ctx));
      const claims = await Promise.all([claim(ctx, 0, 4), claim(ctx, 0, 4), claim(ctx, 0, 4)]);
      const all = claims.flat();
      check.deepEqual(ids(all), ids(messages), 'ids over the concurrent claims');
    },
  },
];
