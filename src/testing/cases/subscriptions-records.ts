import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';
import {
  LEASE,
  attempt,
  claimAt,
  claimOne,
  claimedSubscriber,
  event,
  mark,
  newSubscriber,
  subscriberName,
  tenantsClaimedAt,
} from './subscription-helpers.js';

/** Subscribers' failed attempts, dead letters, attempt listings and purge. */
export const subscriptionRecordCases: readonly StoreConformanceCase[] = [
  {
    id: 'subscriptions.failed-waits-for-the-retry',
    title:
      'a failed attempt ends the claim, keeps the checkpoint and counts, and the partition is due again at retryAt',
    async run(ctx) {
      const { s, name, claim } = await claimedSubscriber(ctx, 'cursor:0');
      const e1 = event(ctx.tenant, 1, name);
      const failed = await s.recordFailed(
        name,
        claim.token,
        attempt(e1, 1, ctx.at(5)),
        'endpoint answered 500',
        ctx.at(10_000),
      );
      check.equal(failed, true, 'failure under the current token');
      // A mark by the walker does not cut the wait short.
      await mark(ctx, s, name, [ctx.tenant], 20);
      check.deepEqual(await tenantsClaimedAt(ctx, s, name, 9_000), [], 'claim before retryAt');
      const again = await claimOne(ctx, s, name, 10_000);
      check.deepEqual([again.checkpoint, again.attempts], ['cursor:0', 1], 'checkpoint, attempts');
      const listed = await s.listAttempts({ tenant: ctx.tenant, limit: 10, eventId: e1.id });
      check.deepEqual(
        listed.attempts.map((a) => [a.subscriber, a.attempt, a.status, a.error]),
        [[name, 1, 'failed', 'endpoint answered 500']],
        'attempts',
      );
    },
  },
  {
    id: 'subscriptions.dead-letters-and-retry',
    title:
      'a dead event moves the checkpoint past it and is kept with its error; a retry queues it and a delivery removes it',
    async run(ctx) {
      const { s, name, claim } = await claimedSubscriber(ctx);
      const e1 = event(ctx.tenant, 1, name);
      const lease = ctx.at(LEASE);
      check.equal(
        await s.recordDead(name, claim.token, attempt(e1, 3, ctx.at(5)), 'gave up', lease),
        true,
        'dead under the current token',
      );
      check.equal(
        await s.releasePartition(name, ctx.tenant, claim.token, claim.wakes),
        true,
        'release',
      );
      const letters = await s.listDeadLetters({ subscriber: name, limit: 10 });
      check.deepEqual(
        letters.map((l) => [l.tenant, l.event, l.attempts, l.error, l.state]),
        [[ctx.tenant, e1, 3, 'gave up', 'dead']],
        'dead letters',
      );
      check.ok(!Number.isNaN(Date.parse(letters[0]!.deadAt)), 'deadAt is a time');
      check.equal(
        await s.retryDeadLetters(name, { tenant: ctx.otherTenant }, ctx.at(10)),
        0,
        "a retry of another tenant's letters",
      );
      check.equal(
        await s.retryDeadLetters(name, { eventIds: [e1.id] }, ctx.at(10)),
        1,
        'letters queued',
      );
      check.deepEqual(
        (await s.listDeadLetters({ subscriber: name, state: 'queued', limit: 10 })).map(
          (l) => l.event.id,
        ),
        [e1.id],
        'queued letters',
      );
      const retry = await claimOne(ctx, s, name, 20);
      check.equal(retry.checkpoint, e1.cursor, 'the checkpoint moved past the dead event');
      check.equal(
        await s.recordDelivered(name, retry.token, [attempt(e1, 1, ctx.at(30), true)], lease),
        true,
        'delivery of the queued letter',
      );
      check.deepEqual(await s.listDeadLetters({ subscriber: name, limit: 10 }), [], 'letters');
      await s.releasePartition(name, ctx.tenant, retry.token);
      const after = await claimOne(ctx, s, name, LEASE * 2);
      check.equal(after.checkpoint, e1.cursor, 'a dead letter delivered leaves the checkpoint');
      const statuses = await s.listAttempts({ tenant: ctx.tenant, subscriber: name, limit: 10 });
      check.deepEqual(
        statuses.attempts.map((a) => a.status),
        ['ok', 'dead'],
        'attempts, newest first',
      );
      // A run recorded at once: the letter is removed, the checkpoint moves to the logged one.
      const e2 = event(ctx.tenant, 2, name);
      const e3 = event(ctx.tenant, 3, name);
      await s.recordDead(name, after.token, attempt(e2, 3, ctx.at(31)), 'gave up', lease);
      await s.retryDeadLetters(name, { tenant: ctx.tenant }, ctx.at(32));
      check.equal(
        await s.recordDelivered(
          name,
          after.token,
          [attempt(e2, 1, ctx.at(33), true), attempt(e3, 1, ctx.at(34))],
          lease,
        ),
        true,
        'a queued letter and a logged event recorded at once',
      );
      check.deepEqual(await s.listDeadLetters({ subscriber: name, limit: 10 }), [], 'none left');
      await s.releasePartition(name, ctx.tenant, after.token);
      const last = await claimOne(ctx, s, name, LEASE * 3);
      check.equal(last.checkpoint, e3.cursor, 'the checkpoint is the last logged event');
    },
  },
  {
    id: 'subscriptions.attempts-listed-per-tenant',
    title:
      'attempts are listed per tenant, newest first, in pages, filtered by subscriber and event; a forged cursor is a 400',
    async run(ctx) {
      const { s, name } = newSubscriber(ctx);
      const other = subscriberName();
      for (const sub of [name, other]) await mark(ctx, s, sub, [ctx.tenant, ctx.otherTenant], 0);
      const claims = await claimAt(ctx, s, name, 0);
      const token = claims.get(ctx.tenant)!.token;
      const lease = ctx.at(LEASE);
      // Five deliveries recorded at once are listed as five attempts, in delivery order.
      await s.recordDelivered(
        name,
        token,
        [1, 2, 3, 4, 5].map((n) => attempt(event(ctx.tenant, n, name), 1, ctx.at(n))),
        lease,
      );
      const theirs = (await claimAt(ctx, s, other, 0)).get(ctx.tenant)!.token;
      await s.recordDelivered(
        other,
        theirs,
        [attempt(event(ctx.tenant, 9, other), 1, ctx.at(9))],
        lease,
      );
      const elsewhere = claims.get(ctx.otherTenant)!.token;
      const e7 = event(ctx.otherTenant, 7, name);
      await s.recordDelivered(name, elsewhere, [attempt(e7, 1, ctx.at(7))], lease);

      const first = await s.listAttempts({ tenant: ctx.tenant, subscriber: name, limit: 2 });
      const ids = (page: typeof first) => page.attempts.map((a) => a.eventId);
      check.deepEqual(
        ids(first),
        [5, 4].map((n) => event(ctx.tenant, n, name).id),
        'page 1',
      );
      check.ok(first.next !== undefined, 'page 1 has a next cursor');
      const second = await s.listAttempts({
        tenant: ctx.tenant,
        subscriber: name,
        limit: 2,
        after: first.next,
      });
      check.deepEqual(
        ids(second),
        [3, 2].map((n) => event(ctx.tenant, n, name).id),
        'page 2',
      );
      const last = await s.listAttempts({
        tenant: ctx.tenant,
        subscriber: name,
        limit: 2,
        after: second.next!,
      });
      check.deepEqual([ids(last), last.next], [[event(ctx.tenant, 1, name).id], undefined], 'end');
      const all = await s.listAttempts({ tenant: ctx.tenant, limit: 10 });
      check.equal(all.attempts.length, 6, "the tenant's attempts of every subscriber");
      check.equal(all.attempts[0]!.subscriber, other, 'the newest first');
      const there = await s.listAttempts({ tenant: ctx.otherTenant, limit: 10 });
      check.deepEqual(ids(there), [e7.id], "the other tenant's attempts");
      await check.rejects(
        s.listAttempts({ tenant: ctx.tenant, limit: 2, after: 'not-a-cursor' }),
        400,
        'invalidCursor',
        'a forged cursor',
      );
    },
  },
  {
    id: 'subscriptions.purge-is-bounded',
    title: 'purge deletes attempts and dead letters older than the time given, at most limit',
    async run(ctx) {
      const { s, name, claim } = await claimedSubscriber(ctx);
      // Long past, so that no other case's rows are as old.
      const past = (n: number) => new Date(Date.UTC(2000, 0, 1, 0, 0, n));
      const lease = ctx.at(LEASE);
      for (let n = 1; n <= 3; n++)
        await s.recordDelivered(
          name,
          claim.token,
          [attempt(event(ctx.tenant, n, name), 1, past(n))],
          lease,
        );
      const e4 = event(ctx.tenant, 4, name);
      await s.recordDead(name, claim.token, attempt(e4, 2, past(4)), 'gave up', lease);
      const recent = event(ctx.tenant, 5, name);
      await s.recordDelivered(name, claim.token, [attempt(recent, 1, ctx.at(5))], lease);
      check.equal(await s.purge(past(3), 10), 2, 'purged before the third attempt');
      check.equal(await s.purge(past(60), 1), 1, 'purge bounded by its limit');
      check.equal(await s.purge(past(60), 10), 2, 'the rest: one attempt, one dead letter');
      check.equal(await s.purge(past(60), 10), 0, 'nothing older is left');
      const left = await s.listAttempts({ tenant: ctx.tenant, subscriber: name, limit: 10 });
      check.deepEqual(
        left.attempts.map((a) => a.eventId),
        [recent.id],
        'the recent attempt',
      );
      check.deepEqual(await s.listDeadLetters({ subscriber: name, limit: 10 }), [], 'letters');
    },
  },
];
