import { expect } from 'vitest';
import type { LoggedEvent } from '../../../src/contracts/event-log.js';
import type { SubscriptionStore } from '../../../src/contracts/event-subscriptions.js';
import { Subscribers } from '../../../src/core/subscriptions/subscribers.js';
import type { SubscribeOptions } from '../../../src/core/subscriptions/types.js';
import { FakeEventLog } from './fake-event-log.js';

const TENANTS = ['t0', 't1', 't2', 't3', 't4', 't5'];

/** Watches every handler call of every instance: overlaps, and successful deliveries. */
function watcher() {
  const busyTenants = new Set<string>();
  const overlaps: string[] = [];
  const deliveredBy = new Map<string, string[]>();
  const successes: LoggedEvent[] = [];
  const call = async (instance: string, event: LoggedEvent, fail: boolean) => {
    if (busyTenants.has(event.tenant)) overlaps.push(`${instance}: ${event.id} (${event.tenant})`);
    busyTenants.add(event.tenant);
    try {
      // Lets the other instance run between the start and the end of this call.
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (fail) throw new Error(`first attempt at ${event.id} fails`);
      successes.push(event);
      deliveredBy.set(instance, [...(deliveredBy.get(instance) ?? []), event.id]);
    } finally {
      busyTenants.delete(event.tenant);
    }
  };
  const inOrder = (tenant: string) => successes.filter((e) => e.tenant === tenant).map((e) => e.id);
  return { call, overlaps, deliveredBy, successes, inOrder };
}

const options: SubscribeOptions = {
  pollIntervalMs: 0,
  concurrency: 3,
  batchSize: 7,
  backoff: { initialMs: 0, maxMs: 0 },
};

/**
 * Two instances (two `Subscribers` on two stores over one database) deliver one log: no tenant
 * is ever in two handler calls at once, every event is delivered exactly once (no lease runs
 * out), in log order per tenant, and both instances take part.
 */
export async function twoInstancesShareTheWork(
  storeA: SubscriptionStore,
  storeB: SubscriptionStore,
): Promise<void> {
  const log = new FakeEventLog();
  log.appendMany(TENANTS, 15);
  const errors: unknown[] = [];
  const w = watcher();
  // Every fifth event fails once, so retries interleave with deliveries.
  const failedOnce = new Set<string>();
  const handlerOf = (instance: string) => async (event: LoggedEvent) => {
    const fail = Number(event.id.slice(3)) % 5 === 0 && !failedOnce.has(event.id);
    if (fail) failedOnce.add(event.id);
    await w.call(instance, event, fail);
  };
  const parts = { log, now: () => new Date(), onError: (e: unknown) => errors.push(e) };
  // The log walked already, every tenant due: each instance's first claim finds work, so both
  // take part whichever starts first (without polling, a later one would not look again).
  const walker = await storeA.claimWalker(
    'shared',
    new Date(),
    new Date(Date.now() + 60_000),
    undefined,
  );
  const marked = await storeA.advanceWalker('shared', walker!.token, {
    ...{ from: undefined, cursor: log.events.at(-1)!.cursor, tenants: TENANTS },
    ...{ now: new Date(), leaseUntil: new Date() },
  });
  expect(marked).toBe(true);
  await storeA.releaseWalker('shared', walker!.token);
  const a = new Subscribers({ ...parts, store: storeA }).subscribe(
    'shared',
    handlerOf('A'),
    options,
  );
  const b = new Subscribers({ ...parts, store: storeB }).subscribe(
    'shared',
    handlerOf('B'),
    options,
  );
  await Promise.all([a.drain(), b.drain()]);
  await a.drain();
  await b.drain();
  await Promise.all([a.stop(), b.stop()]);

  expect(errors).toEqual([]);
  expect(w.overlaps).toEqual([]);
  for (const t of TENANTS)
    expect(w.inOrder(t)).toEqual(log.events.filter((e) => e.tenant === t).map((e) => e.id));
  expect(w.successes).toHaveLength(log.events.length);
  expect(w.deliveredBy.get('A')?.length ?? 0).toBeGreaterThan(0);
  expect(w.deliveredBy.get('B')?.length ?? 0).toBeGreaterThan(0);
}

/**
 * A store whose every call hangs once `dead()` says so (a process killed mid-delivery), and
 * that tells which deliveries it recorded before.
 */
function killable(
  store: SubscriptionStore,
  dead: () => boolean,
  recorded: string[],
): SubscriptionStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const member = Reflect.get(target, key, receiver) as unknown;
      if (typeof member !== 'function') return member;
      return async (...args: unknown[]) => {
        if (dead()) return new Promise(() => {});
        const result: unknown = await (member as (...a: unknown[]) => unknown).apply(target, args);
        if (key === 'recordDelivered' && result === true)
          recorded.push((args[2] as { event: LoggedEvent }).event.id);
        return result;
      };
    },
  });
}

/**
 * An instance dies in the middle of a delivery (its store calls never return, as with SIGKILL):
 * once its leases run out, the other instance delivers every event the dead one did not record,
 * in log order per tenant.
 */
export async function anInstanceKilledMidDelivery(
  storeA: SubscriptionStore,
  storeB: SubscriptionStore,
): Promise<void> {
  const log = new FakeEventLog();
  log.appendMany(TENANTS.slice(0, 3), 10);
  let killed = false;
  const seenByA: string[] = [];
  const recordedByA: string[] = [];
  const fast = { ...options, timeoutMs: 100, leaseMs: 300 };
  const parts = { log, now: () => new Date(), onError: () => {} };
  const a = new Subscribers({
    ...parts,
    store: killable(storeA, () => killed, recordedByA),
  }).subscribe(
    'survives',
    async (event) => {
      seenByA.push(event.id);
      // Killed after its seventh call began: that call and everything after is never recorded.
      if (seenByA.length === 7) killed = true;
    },
    fast,
  );
  await expect.poll(() => killed).toBe(true);
  const seenByB: LoggedEvent[] = [];
  const b = new Subscribers({ ...parts, store: storeB }).subscribe(
    'survives',
    async (event) => void seenByB.push(event),
    fast,
  );
  const all = log.events.map((e) => e.id);
  await expect
    .poll(
      async () => {
        await b.drain();
        return new Set([...recordedByA, ...seenByB.map((e) => e.id)]).size;
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe(all.length);
  for (const t of TENANTS.slice(0, 3)) {
    const got = seenByB.filter((e) => e.tenant === t).map((e) => e.id);
    const expected = log.events.filter((e) => e.tenant === t).map((e) => e.id);
    // B resumes each tenant at its checkpoint: a suffix of the tenant's events, in order.
    expect(expected.slice(expected.length - got.length)).toEqual(got);
  }
  await b.stop();
  // The dead instance is never stopped: its calls hang, as a killed process's would.
  void a;
}
