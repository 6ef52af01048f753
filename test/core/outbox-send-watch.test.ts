import { describe, expect, it } from 'vitest';
import type { SendOptions } from '../../src/index.js';
import {
  OutboxClaimLost,
  OutboxSendTimeout,
  SendWatch,
} from '../../src/core/outbox/send-under-lease.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { dispatcherFor, outboxOf, record, sleep } from './outbox-harness.js';

const watchOf = (leaseMs: number, timeoutMs: number) => {
  lease = leaseMs;
  const errors: unknown[] = [];
  const watch = new SendWatch(
    { leaseMs, timeoutMs },
    () => new Date(),
    (e) => errors.push(e),
  );
  return { watch, errors };
};
// The lease of the watch made last, as a confirmed claim starts it.
let lease = 0;
const confirm = async () => true;
const never = () => new Promise<void>(() => undefined);

// SendWatch keeps one timer for every send and makes a send's AbortController only when the
// Mailer reads `signal`: each send still behaves as one with its own timers and controller.
describe('the send watch holds every send to its own lease and timeout', () => {
  it('gives each of several sends in a row its own timeout', async () => {
    const { watch } = watchOf(60_000, 80);
    for (let i = 0; i < 5; i++) await watch.run(Date.now() + lease, confirm, async () => undefined);
    await sleep(30);
    let signal: AbortSignal | undefined;
    const started = Date.now();
    await expect(
      watch.run(Date.now() + lease, confirm, (options) => {
        signal = options.signal;
        return never();
      }),
    ).rejects.toBeInstanceOf(OutboxSendTimeout);
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    expect(signal?.aborted).toBe(true);
    watch.stop();
  });

  it('gives a Mailer that reads its signal only after the abort a signal aborted for that reason', async () => {
    const { watch } = watchOf(60_000, 40);
    let options: SendOptions | undefined;
    const run = watch.run(Date.now() + lease, confirm, (o) => {
      options = o;
      return never();
    });
    await expect(run).rejects.toBeInstanceOf(OutboxSendTimeout);
    const { signal } = options!;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBeInstanceOf(OutboxSendTimeout);
    expect(options!.signal).toBe(signal);
    // As with a plain `{ signal }`, a copy of the options carries the signal.
    expect({ ...options }.signal).toBe(signal);
    expect(Object.keys(options!)).toEqual(['signal']);
    watch.stop();
  });

  it('stops waiting for a Mailer that never reads its signal when the claim is lost', async () => {
    const { watch } = watchOf(60, 10_000);
    let renewals = 0;
    const renew = async () => ++renewals < 3;
    await expect(watch.run(Date.now() + lease, renew, never)).rejects.toBeInstanceOf(
      OutboxClaimLost,
    );
    expect(renewals).toBe(3);
    watch.stop();
  });

  it('renews while a send runs past the lease, one renewal at a time, and not after it ended', async () => {
    const { watch, errors } = watchOf(60, 10_000);
    let renewals = 0;
    let running = 0;
    let most = 0;
    const renew = async () => {
      renewals++;
      most = Math.max(most, ++running);
      await sleep(30);
      running--;
      return true;
    };
    await watch.run(Date.now() + lease, renew, async () => void (await sleep(200)));
    const after = renewals;
    expect(after).toBeGreaterThanOrEqual(2);
    expect(most).toBe(1);
    await sleep(100);
    expect(renewals).toBe(after);
    expect(errors).toEqual([]);
    watch.stop();
  });

  it('rejects with what a Mailer throws, also when it throws before returning a promise', async () => {
    const { watch } = watchOf(60_000, 1000);
    const boom = new Error('boom');
    await expect(
      watch.run(Date.now() + lease, confirm, () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    await expect(watch.run(Date.now() + lease, confirm, () => Promise.reject(boom))).rejects.toBe(
      boom,
    );
    watch.stop();
  });
});

describe('the options a Mailer gets with a send', () => {
  it('may be spread before the abort, and the copy keeps a signal that aborts', async () => {
    const { watch } = watchOf(60_000, 40);
    let copy: SendOptions | undefined;
    const run = watch.run(Date.now() + lease, confirm, (options) => {
      copy = { ...options };
      return never();
    });
    expect(copy?.signal).toBeInstanceOf(AbortSignal);
    expect(copy?.signal.aborted).toBe(false);
    const aborted = new Promise((resolve) => copy?.signal.addEventListener('abort', resolve));
    await expect(run).rejects.toBeInstanceOf(OutboxSendTimeout);
    await aborted;
    expect(copy?.signal.reason).toBeInstanceOf(OutboxSendTimeout);
    // Like a plain `{ signal }`: one own, enumerable, configurable member.
    expect(Object.getOwnPropertyDescriptor(copy, 'signal')).toMatchObject({
      enumerable: true,
      configurable: true,
    });
    watch.stop();
  });

  it('give each send a signal of its own', async () => {
    const { watch } = watchOf(60_000, 10_000);
    const signals: AbortSignal[] = [];
    for (let i = 0; i < 2; i++) {
      await watch.run(Date.now() + lease, confirm, async (options) => {
        signals.push(options.signal, options.signal);
      });
    }
    expect(signals[0]).toBe(signals[1]);
    expect(signals[2]).toBe(signals[3]);
    expect(signals[0]).not.toBe(signals[2]);
    watch.stop();
  });

  it('make no AbortController for a Mailer that never reads the signal', async () => {
    const made = { controllers: 0 };
    const Plain = globalThis.AbortController;
    globalThis.AbortController = class extends Plain {
      constructor() {
        super();
        made.controllers++;
      }
    };
    try {
      const { watch } = watchOf(60_000, 10_000);
      for (let i = 0; i < 3; i++) {
        await watch.run(Date.now() + lease, confirm, async (options) => {
          expect(Object.keys(options)).toEqual(['signal']);
        });
      }
      expect(made.controllers).toBe(0);
      // The count sees a controller when one is made: a Mailer that reads the signal.
      await watch.run(Date.now() + lease, confirm, async (options) => void options.signal);
      expect(made.controllers).toBe(1);
      watch.stop();
    } finally {
      globalThis.AbortController = Plain;
    }
  });
});

describe('kicking the outbox dispatcher while a round runs', () => {
  it('reports the failure of the round it joined', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1']);
    const failure = new Error('store unreachable');
    const outbox = outboxOf(store, {
      claim: async () => {
        await sleep(10);
        throw failure;
      },
    });
    const { dispatcher, errors } = dispatcherFor(
      store,
      { sendWelcome: async () => {} },
      {},
      outbox,
    );
    const draining = dispatcher.drain();
    dispatcher.kick();
    dispatcher.kick();
    await expect(draining).rejects.toBe(failure);
    await sleep(0);
    expect(errors).toContain(failure);
    await dispatcher.close();
  });
});
