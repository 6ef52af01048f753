import type { OutboxMessage, OutboxStore, PendingOutboxMessage } from '../../contracts/outbox.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';

const LEASE = 60_000;

/** Claims at `offset` ms into the case with a one-minute lease. */
function claim(ctx: StoreTestContext, offset: number, limit = 100) {
  return outboxOf(ctx).claim(ctx.at(offset), ctx.at(offset + LEASE), limit);
}

/** The store's outbox; the case is skipped for a store without one (it sends no email). */
function outboxOf(ctx: StoreTestContext): OutboxStore {
  return ctx.store.outbox ?? ctx.skip('the store has no outbox (a service without a mailer)');
}

const ids = (messages: readonly { id: string }[]) => messages.map((m) => m.id).sort();

/** Returns claimed messages without their tokens, after checking each has one. */
function untokened(claimed: readonly PendingOutboxMessage[]) {
  return claimed.map(({ claimToken, ...rest }) => {
    check.ok(
      typeof claimToken === 'string' && claimToken !== '',
      `claim gives message ${rest.id} a non-empty claimToken (got ${String(claimToken)})`,
    );
    return rest;
  });
}

/** Claims `message` alone at `offset` and returns its claim token. */
async function claimOne(ctx: StoreTestContext, message: OutboxMessage, offset: number) {
  const claimed = await claim(ctx, offset);
  check.deepEqual(ids(claimed), [message.id], `claim at +${offset} ms`);
  return claimed[0]!.claimToken;
}

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
      const claimed = untokened(await claim(ctx, 0));
      check.deepEqual(claimed, [{ ...message, attempts: 0 }], 'claimed messages');
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
      const token = await claimOne(ctx, message, 0);
      check.equal(await outboxOf(ctx).complete(message.id, token, ctx.at(10)), true, 'complete');
      check.deepEqual(await claim(ctx, 10 * LEASE), [], 'claim after complete');
      check.equal(
        await outboxOf(ctx).complete(message.id, token, ctx.at(20)),
        false,
        'a second complete',
      );
      const failed = await outboxOf(ctx).fail(message.id, token, 'late', undefined);
      check.equal(failed, false, 'fail after complete');
    },
  },
  {
    id: 'outbox.fail-with-retry-reschedules',
    title: 'a failure with retryAt makes the message due again at that time, counting the attempt',
    async run(ctx) {
      const outbox = outboxOf(ctx);
      const message = await userWithMessage(ctx);
      const first = await claimOne(ctx, message, 0);
      check.equal(await outbox.fail(message.id, first, 'SMTP 451', ctx.at(5_000)), true, 'fail');
      // The failure ended the claim: its token settles nothing any more.
      check.equal(
        await outbox.complete(message.id, first, ctx.at(1)),
        false,
        'complete after fail',
      );
      check.deepEqual(await claim(ctx, 4_000), [], 'claim before retryAt');
      const second = await claim(ctx, 5_000);
      check.deepEqual(untokened(second), [{ ...message, attempts: 1 }], 'claim at retryAt');
      await outbox.fail(message.id, second[0]!.claimToken, 'SMTP 451', ctx.at(9_000));
      check.deepEqual(
        untokened(await claim(ctx, 9_000)),
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
      const token = await claimOne(ctx, message, 0);
      await outboxOf(ctx).fail(message.id, token, 'mailbox does not exist', undefined);
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
  {
    id: 'outbox.claim-tokens-differ',
    title: 'each claim of a message gives it a new claimToken',
    async run(ctx) {
      const message = await userWithMessage(ctx);
      const first = await claimOne(ctx, message, 0);
      const second = await claimOne(ctx, message, LEASE + 1);
      check.ok(first !== second, `the re-claim has a new token (both were "${first}")`);
    },
  },
  {
    id: 'outbox.stale-claim-changes-nothing',
    title:
      'after the lease ran out and another claim took the message, the old token cannot renew, complete, fail or release it',
    async run(ctx) {
      const outbox = outboxOf(ctx);
      const message = await userWithMessage(ctx);
      const stale = await claimOne(ctx, message, 0);
      await claimOne(ctx, message, LEASE + 1);
      const at = ctx.at(LEASE + 2);
      check.equal(await outbox.renew(message.id, stale, ctx.at(10 * LEASE)), false, 'renew');
      check.equal(await outbox.complete(message.id, stale, at), false, 'complete');
      check.equal(await outbox.fail(message.id, stale, 'late', undefined), false, 'final fail');
      check.equal(await outbox.fail(message.id, stale, 'late', at), false, 'fail with retry');
      check.equal(await outbox.release(message.id, stale), false, 'release');
      // The new holder's lease still hides the message, and no attempt was counted.
      check.deepEqual(await claim(ctx, LEASE + 3), [], 'claim during the new lease');
      check.deepEqual(
        untokened(await claim(ctx, 2 * LEASE + 2)),
        [{ ...message, attempts: 0 }],
        'claim after the new lease',
      );
    },
  },
  {
    id: 'outbox.new-holder-settles',
    title: 'the holder of the current claim completes or fails the message, whoever held it before',
    async run(ctx) {
      const outbox = outboxOf(ctx);
      const sent = await userWithMessage(ctx);
      const failed = await userWithMessage(ctx);
      const claimed = await claim(ctx, 0);
      check.deepEqual(ids(claimed), ids([sent, failed]), 'first claim');
      const again = await claim(ctx, LEASE + 1);
      const tokenOf = (id: string) => again.find((m) => m.id === id)!.claimToken;
      const at = ctx.at(LEASE + 2);
      check.equal(await outbox.complete(sent.id, tokenOf(sent.id), at), true, 'complete');
      const failure = await outbox.fail(failed.id, tokenOf(failed.id), 'bounced', undefined);
      check.equal(failure, true, 'fail');
      check.deepEqual(await claim(ctx, 10 * LEASE), [], 'claim after both were settled');
    },
  },
  {
    id: 'outbox.unclaimed-changes-nothing',
    title: 'renew, complete, fail and release of a message no one claimed do nothing',
    async run(ctx) {
      const outbox = outboxOf(ctx);
      const message = await userWithMessage(ctx);
      const guess = 'not-a-claim';
      check.equal(await outbox.renew(message.id, guess, ctx.at(LEASE)), false, 'renew');
      check.equal(await outbox.complete(message.id, guess, ctx.at(0)), false, 'complete');
      check.equal(await outbox.fail(message.id, guess, 'x', undefined), false, 'fail');
      check.equal(await outbox.release(message.id, guess), false, 'release');
      check.equal(await outbox.complete('no-such-message', guess, ctx.at(0)), false, 'unknown id');
      check.deepEqual(
        untokened(await claim(ctx, 0)),
        [{ ...message, attempts: 0 }],
        'claim afterwards',
      );
    },
  },
  {
    id: 'outbox.renew-extends-the-lease',
    title:
      'renew by the holder moves the lease end, also after the lease ran out while no one else claimed',
    async run(ctx) {
      const outbox = outboxOf(ctx);
      const message = await userWithMessage(ctx);
      const token = await claimOne(ctx, message, 0);
      check.equal(await outbox.renew(message.id, token, ctx.at(3 * LEASE)), true, 'renew');
      check.deepEqual(await claim(ctx, 2 * LEASE), [], 'claim after the first lease');
      // Lapsed but not claimed by anyone: the holder's token is still the current one.
      check.equal(await outbox.renew(message.id, token, ctx.at(5 * LEASE)), true, 'late renew');
      check.deepEqual(await claim(ctx, 4 * LEASE), [], 'claim during the late renewal');
      check.equal(await outbox.complete(message.id, token, ctx.at(4 * LEASE)), true, 'complete');
    },
  },
  {
    id: 'outbox.release-hands-back',
    title:
      'release ends the claim without counting an attempt: the message is claimable at once, and the old token is stale',
    async run(ctx) {
      const outbox = outboxOf(ctx);
      const message = await userWithMessage(ctx);
      const token = await claimOne(ctx, message, 0);
      check.equal(await outbox.release(message.id, token), true, 'release');
      check.equal(await outbox.release(message.id, token), false, 'a second release');
      const again = await claim(ctx, 1);
      check.deepEqual(untokened(again), [{ ...message, attempts: 0 }], 'claim after release');
      check.equal(
        await outbox.complete(message.id, token, ctx.at(2)),
        false,
        'complete, old token',
      );
      const current = again[0]!.claimToken;
      check.equal(
        await outbox.complete(message.id, current, ctx.at(2)),
        true,
        'complete, new token',
      );
    },
  },
];
