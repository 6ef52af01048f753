import { describe, expect, it } from 'vitest';
import { ScimConfigError } from '../../../src/index.js';
import { Subscribers } from '../../../src/core/subscriptions/subscribers.js';
import { retryDelay } from '../../../src/core/subscriptions/subscribe-settings.js';
import { FakeEventLog } from './fake-event-log.js';
import { recordingHandler, subscriberSetup } from './harness.js';

describe('subscribe refuses what cannot work, at once', () => {
  const { handler } = recordingHandler();

  it.each([
    ['', {}, /the name must be/],
    ['has space', {}, /the name must be/],
    ['ok', { timeoutMs: 0 }, /timeoutMs must be a finite number of at least 1/],
    ['ok', { maxAttempts: 1.5 }, /maxAttempts must be a finite whole number/],
    ['ok', { backoff: { initialMs: -1 } }, /backoff.initialMs must be/],
    ['ok', { concurrency: Number.NaN }, /concurrency must be/],
    ['ok', { timeoutMs: 10_000, leaseMs: 15_000 }, /leaseMs \(15000\) must be at least twice/],
    ['ok', { types: [''] }, /types must be non-empty strings/],
  ])('name %j with %j', (name, options, message) => {
    const { subscribe } = subscriberSetup();
    expect(() => subscribe(name, handler, options)).toThrow(ScimConfigError);
    expect(() => subscribe(name, handler, options)).toThrow(message);
  });

  it('refuses a second subscriber of one name in one process, until the first stops', async () => {
    const { subscribe } = subscriberSetup();
    const first = subscribe('once', handler);
    expect(() => subscribe('once', handler)).toThrow(/already runs a subscriber of that name/);
    await first.stop();
    await subscribe('once', handler).stop();
  });

  it('refuses a store that keeps no subscription state, and a closed service', async () => {
    const none = new Subscribers({
      log: new FakeEventLog(),
      store: undefined,
      now: () => new Date(),
      onError: () => {},
    });
    expect(() => none.subscribe('x', handler)).toThrow(/keeps no subscription state/);
    const { subscribers } = subscriberSetup();
    await subscribers.close();
    expect(() => subscribers.subscribe('x', handler)).toThrow(/the service is closed/);
  });
});

describe('the retry backoff', () => {
  const settings = { initialMs: 1000, maxMs: 60_000 };

  it('doubles from initialMs up to maxMs, jittered within the upper half of each delay', () => {
    expect([1, 2, 3, 7, 8, 40].map((n) => retryDelay(settings, n, () => 1))).toEqual([
      1000, 2000, 4000, 60_000, 60_000, 60_000,
    ]);
    expect([1, 2, 3, 7].map((n) => retryDelay(settings, n, () => 0))).toEqual([
      500, 1000, 2000, 30_000,
    ]);
  });
});
