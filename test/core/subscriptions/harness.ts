import type { LoggedEvent } from '../../../src/contracts/event-log.js';
import type { SubscriptionStore } from '../../../src/contracts/event-subscriptions.js';
import { Subscribers } from '../../../src/core/subscriptions/subscribers.js';
import type {
  DeliveryContext,
  SubscribeOptions,
  Subscription,
} from '../../../src/core/subscriptions/types.js';
import { MemoryUserStore } from '../../../src/stores/memory/index.js';
import { FakeEventLog } from './fake-event-log.js';

/** A handler that records every call and does what `behave` says for each. */
export function recordingHandler(
  behave: (event: LoggedEvent, context: DeliveryContext) => Promise<void> | void = () => {},
) {
  const calls: { id: string; tenant: string; attempt: number; signal: AbortSignal }[] = [];
  const handler = async (event: LoggedEvent, context: DeliveryContext) => {
    calls.push({ id: event.id, tenant: event.tenant, ...context });
    await behave(event, context);
  };
  const delivered = (tenant?: string) =>
    calls.filter((c) => tenant === undefined || c.tenant === tenant).map((c) => c.id);
  return { handler, calls, delivered };
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2030, 0, 1)) {
  let at = start;
  return { now: () => new Date(at), advance: (ms: number) => void (at += ms) };
}

/** A log, a memory subscription store, and the subscribers over them, no polling. */
export function subscriberSetup(store?: SubscriptionStore) {
  const log = new FakeEventLog();
  const subscriptions = store ?? new MemoryUserStore().subscriptions;
  const clock = manualClock();
  const errors: unknown[] = [];
  const subscribers = new Subscribers({
    log,
    store: subscriptions,
    now: clock.now,
    onError: (e) => errors.push(e),
  });
  const subscribe = (
    name: string,
    handler: Parameters<Subscribers['subscribe']>[1],
    options: SubscribeOptions = {},
  ): Subscription => subscribers.subscribe(name, handler, { pollIntervalMs: 0, ...options });
  return { log, store: subscriptions, clock, errors, subscribers, subscribe };
}
