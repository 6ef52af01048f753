import type { LoggedEvent } from '../../contracts/event-log.js';
import type {
  AttemptRecord,
  PartitionClaim,
  SubscriptionStore,
} from '../../contracts/event-subscriptions.js';
import { check } from '../assertions.js';
import type { StoreTestContext } from '../types.js';

/** The lease the cases take, in ms. */
export const LEASE = 60_000;

/** The store's subscription state; the case is skipped for a store without one. */
export function subscriptionsOf(ctx: StoreTestContext): SubscriptionStore {
  return (
    ctx.store.subscriptions ??
    ctx.skip('the store keeps no subscription state (a service without event subscribers)')
  );
}

/** A subscriber name of this case alone: stores share their state across tenants. */
export const subscriberName = () => `sub-${Math.random().toString(36).slice(2, 10)}`;

/** What every case starts from: the store's subscription state and a subscriber of its own. */
export function newSubscriber(ctx: StoreTestContext): { s: SubscriptionStore; name: string } {
  return { s: subscriptionsOf(ctx), name: subscriberName() };
}

/**
 * A new subscriber with the partition of `ctx.tenant` marked due (from `from`, or from the
 * start) and claimed at +0 ms.
 */
export async function claimedSubscriber(
  ctx: StoreTestContext,
  from: string | undefined = undefined,
): Promise<{ s: SubscriptionStore; name: string; claim: PartitionClaim }> {
  const { s, name } = newSubscriber(ctx);
  await mark(ctx, s, name, [ctx.tenant], 0, from);
  return { s, name, claim: await claimOne(ctx, s, name, 0) };
}

/** An event of `tenant` at log position `n`, with an opaque cursor the store keeps as given. */
export function event(tenant: string, n: number, subscriber: string): LoggedEvent {
  return {
    id: `${subscriber}-ev-${String(n).padStart(4, '0')}`,
    type: 'user.created',
    tenant,
    occurredAt: '2025-01-01T00:00:00.000Z',
    data: { id: `u${n}`, resourceType: 'User', resource: { userName: `u${n}@example.org` } },
    cursor: `cursor:${n}`,
  };
}

/** An attempt record of `e`. */
export function attempt(
  e: LoggedEvent,
  n: number,
  at: Date,
  fromDeadLetter = false,
): AttemptRecord {
  return { event: e, attempt: n, at, fromDeadLetter };
}

/** Creates the partitions of `tenants` through a walker's advance, from `from`. */
export async function mark(
  ctx: StoreTestContext,
  s: SubscriptionStore,
  subscriber: string,
  tenants: readonly string[],
  offset: number,
  from: string | undefined = undefined,
): Promise<void> {
  const walker = await s.claimWalker(subscriber, ctx.at(offset), ctx.at(offset + 1000), undefined);
  check.ok(walker !== null, `the walker of ${subscriber} is claimable at +${offset} ms`);
  const advanced = await s.advanceWalker(subscriber, walker.token, {
    from,
    cursor: `cursor:after-${offset}`,
    tenants,
    now: ctx.at(offset),
    leaseUntil: ctx.at(offset + 1000),
  });
  check.equal(advanced, true, 'advance under the current walker token');
  check.equal(await s.releaseWalker(subscriber, walker.token), true, 'release of the walker');
}

/** Claims at `offset` and returns the claims by tenant. */
export async function claimAt(
  ctx: StoreTestContext,
  s: SubscriptionStore,
  subscriber: string,
  offset: number,
): Promise<Map<string, PartitionClaim>> {
  const claims = await s.claimPartitions(subscriber, ctx.at(offset), ctx.at(offset + LEASE), 100);
  return new Map(claims.map((c) => [c.tenant, c]));
}

/** Claims at `offset` and returns the tenants claimed. */
export async function tenantsClaimedAt(
  ctx: StoreTestContext,
  s: SubscriptionStore,
  subscriber: string,
  offset: number,
): Promise<string[]> {
  return [...(await claimAt(ctx, s, subscriber, offset)).keys()];
}

/** Claims the one partition of `ctx.tenant` at `offset`, failing when it is not claimable. */
export async function claimOne(
  ctx: StoreTestContext,
  s: SubscriptionStore,
  subscriber: string,
  offset: number,
): Promise<PartitionClaim> {
  const claims = await claimAt(ctx, s, subscriber, offset);
  check.deepEqual([...claims.keys()], [ctx.tenant], `partitions claimed at +${offset} ms`);
  return claims.get(ctx.tenant)!;
}
