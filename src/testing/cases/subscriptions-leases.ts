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

/** Subscribers' walkers and partitions: leases, fencing, checkpoints, replay. */
export const subscriptionLeaseCases: readonly StoreConformanceCase[] = [
  {
    id: 'subscriptions.walker-lease-and-fencing',
    title:
      'a walker is claimed by one holder at a time, starts where it was told, and only the current token moves it',
    async run(ctx) {
      const { s, name } = newSubscriber(ctx);
      const first = await s.claimWalker(name, ctx.at(0), ctx.at(LEASE), 'cursor:7');
      check.ok(first !== null, 'a new walker is claimable');
      check.equal(first.cursor, 'cursor:7', 'a new walker starts after startAfter');
      check.equal(
        await s.claimWalker(name, ctx.at(1000), ctx.at(1000 + LEASE), undefined),
        null,
        'claim during the lease',
      );
      const second = await s.claimWalker(name, ctx.at(LEASE), ctx.at(2 * LEASE), undefined);
      check.ok(second !== null && second.token !== first.token, 'a claim after the lease');
      const stale = await s.advanceWalker(name, first.token, {
        from: 'cursor:7',
        cursor: 'cursor:9',
        tenants: [ctx.tenant],
        now: ctx.at(LEASE),
        leaseUntil: ctx.at(2 * LEASE),
      });
      check.equal(stale, false, 'advance under the stale token');
      check.deepEqual(await tenantsClaimedAt(ctx, s, name, LEASE), [], 'partitions marked');
      check.equal(await s.releaseWalker(name, first.token), false, 'release under a stale token');
      check.equal(await s.releaseWalker(name, second.token), true, 'release under the token');
      const third = await s.claimWalker(name, ctx.at(LEASE + 1), ctx.at(LEASE * 3), 'cursor:1');
      check.equal(third?.cursor, 'cursor:7', 'an existing walker keeps its cursor');
    },
  },
  {
    id: 'subscriptions.advance-marks-partitions',
    title:
      "a walker's advance moves its cursor and makes each tenant's partition due, new ones at the page's start",
    async run(ctx) {
      const { s, name } = newSubscriber(ctx);
      await mark(ctx, s, name, [ctx.tenant, ctx.otherTenant], 0, 'cursor:3');
      const walker = await s.claimWalker(name, ctx.at(10), ctx.at(10 + LEASE), undefined);
      check.equal(walker?.cursor, 'cursor:after-0', 'the cursor after the advance');
      const claims = await claimAt(ctx, s, name, 20);
      check.deepEqual(
        [...claims.values()].map((c) => [c.tenant, c.checkpoint, c.attempts]).sort(),
        [
          [ctx.otherTenant, 'cursor:3', 0],
          [ctx.tenant, 'cursor:3', 0],
        ].sort(),
        'claimed partitions (tenant, checkpoint, attempts)',
      );
      check.deepEqual(await tenantsClaimedAt(ctx, s, name, 30), [], 'claims while the leases run');
      check.deepEqual(
        await tenantsClaimedAt(ctx, s, subscriberName(), LEASE * 2),
        [],
        "another subscriber's partitions",
      );
    },
  },
  {
    id: 'subscriptions.delivered-moves-the-checkpoint',
    title:
      'a delivery recorded under the current token moves the checkpoint; a stale token records nothing',
    async run(ctx) {
      const { s, name, claim: first } = await claimedSubscriber(ctx);
      const e1 = event(ctx.tenant, 1, name);
      check.equal(first.checkpoint, undefined, 'a partition made from the start has no checkpoint');
      // The lease ran out: another holder claims it, the first one's token is stale.
      const second = await claimOne(ctx, s, name, LEASE);
      check.ok(second.token !== first.token, 'a new claim has a new token');
      const lease = ctx.at(3 * LEASE);
      check.equal(
        await s.recordDelivered(name, first.token, [attempt(e1, 1, ctx.at(LEASE))], lease),
        false,
        'delivery under the stale token',
      );
      check.equal(
        await s.renewPartition(name, ctx.tenant, first.token, lease),
        false,
        'renewal under the stale token',
      );
      check.equal(
        await s.recordDelivered(name, second.token, [attempt(e1, 1, ctx.at(LEASE))], lease),
        true,
        'delivery under the current token',
      );
      check.equal(
        await s.releasePartition(name, ctx.tenant, second.token, second.wakes),
        true,
        'release',
      );
      check.deepEqual(await tenantsClaimedAt(ctx, s, name, 4 * LEASE), [], 'an idle partition');
      await mark(ctx, s, name, [ctx.tenant], 4 * LEASE);
      const third = await claimOne(ctx, s, name, 4 * LEASE);
      check.equal(third.checkpoint, e1.cursor, 'the checkpoint after the delivery');
      const listed = await s.listAttempts({ tenant: ctx.tenant, subscriber: name, limit: 10 });
      check.deepEqual(
        listed.attempts.map((a) => [a.eventId, a.eventType, a.attempt, a.status, a.error]),
        [[e1.id, e1.type, 1, 'ok', undefined]],
        'attempts (a stale token recorded none)',
      );
    },
  },
  {
    id: 'subscriptions.release-keeps-a-later-mark',
    title: 'a partition released as idle stays due when the walker marked it during the claim',
    async run(ctx) {
      const { s, name, claim } = await claimedSubscriber(ctx);
      await mark(ctx, s, name, [ctx.tenant], 10);
      check.equal(
        await s.releasePartition(name, ctx.tenant, claim.token, claim.wakes),
        true,
        'release',
      );
      await claimOne(ctx, s, name, 20);
    },
  },
  {
    id: 'subscriptions.replay-moves-checkpoints',
    title:
      "a replay sets a tenant's checkpoint, or every partition's and the walker's, and makes the holder's token stale",
    async run(ctx) {
      const { s, name } = newSubscriber(ctx);
      const e5 = event(ctx.tenant, 5, name);
      await mark(ctx, s, name, [ctx.tenant, ctx.otherTenant], 0, 'cursor:4');
      const claims = await claimAt(ctx, s, name, 0);
      const held = claims.get(ctx.tenant)!;
      const idle = claims.get(ctx.otherTenant)!;
      await s.releasePartition(name, ctx.otherTenant, idle.token, idle.wakes);
      await s.replay(name, ctx.tenant, 'cursor:1', ctx.at(10));
      check.equal(
        await s.recordDelivered(name, held.token, [attempt(e5, 1, ctx.at(10))], ctx.at(LEASE)),
        false,
        "the holder's delivery after the replay",
      );
      check.deepEqual(await tenantsClaimedAt(ctx, s, name, 20), [], 'claim before the lease ends');
      const replayed = await claimOne(ctx, s, name, LEASE);
      check.deepEqual([replayed.checkpoint, replayed.attempts], ['cursor:1', 0], 'after replay');
      await s.releasePartition(name, ctx.tenant, replayed.token);
      const walker = await s.claimWalker(name, ctx.at(LEASE), ctx.at(2 * LEASE), undefined);
      check.ok(walker !== null, 'walker claim');
      await s.replay(name, undefined, undefined, ctx.at(LEASE + 10));
      const reclaimed = await s.claimWalker(name, ctx.at(LEASE + 20), ctx.at(3 * LEASE), 'x');
      check.ok(reclaimed !== null, 'the walker is free at once after a replay of all');
      check.equal(reclaimed.cursor, undefined, 'the walker from the start');
      const all = await claimAt(ctx, s, name, 2 * LEASE);
      check.deepEqual(
        [...all.values()].map((c) => [c.tenant, c.checkpoint]).sort(),
        [
          [ctx.otherTenant, undefined],
          [ctx.tenant, undefined],
        ].sort(),
        'every partition from the start',
      );
      await s.replay(name, `${ctx.tenant}-new`, 'cursor:2', ctx.at(2 * LEASE));
      const made = await claimAt(ctx, s, name, 2 * LEASE);
      check.equal(made.get(`${ctx.tenant}-new`)?.checkpoint, 'cursor:2', 'a partition made');
    },
  },
];
