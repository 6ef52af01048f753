import { describe, expect, it, vi } from 'vitest';
import { ScimConfigError, type WelcomeEmail } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { dispatcherFor, heldMailer, outboxOf, record, sleep, states } from './outbox-harness.js';

const farFuture = () => new Date(Date.now() + 3_600_000);

describe('the outbox dispatcher sends only under a claim it holds', () => {
  it('skips the messages of its batch that another sender claimed after their lease ran out', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1', 'm2', 'm3']);
    const held = heldMailer();
    // Leases generous enough that a busy machine's event-loop stalls do not break them.
    const { dispatcher } = dispatcherFor(store, held.mailer, { leaseMs: 300 });
    const draining = dispatcher.drain();
    await expect.poll(() => held.calls.length).toBe(1);
    // The batch's other leases run out while m1 is being sent; another instance claims them.
    await sleep(700);
    const other = await store.outbox.claim(new Date(), farFuture(), 10);
    expect(other.map((m) => m.id)).toEqual(['m2', 'm3']);
    held.settleAll();
    expect(await draining).toBe(1);
    expect(held.calls.map((c) => c.email.id)).toEqual(['m1']);
    // The other instance's claims are untouched: it sends and settles them.
    for (const m of other) await store.outbox.complete(m.id, m.claimToken, new Date());
    expect(Object.values(states(store)).map((s) => s.state)).toEqual(['sent', 'sent', 'sent']);
    await dispatcher.close();
  });

  it('renews the lease while a send takes longer than the lease, so no one else can claim it', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1']);
    const held = heldMailer();
    const { dispatcher, errors } = dispatcherFor(store, held.mailer, { leaseMs: 300 });
    const draining = dispatcher.drain();
    await expect.poll(() => held.calls.length).toBe(1);
    for (let i = 0; i < 3; i++) {
      await sleep(300);
      expect(await store.outbox.claim(new Date(), farFuture(), 10), `claim ${i}`).toEqual([]);
    }
    held.settle('m1');
    expect(await draining).toBe(1);
    expect(states(store)).toEqual({ m1: { state: 'sent', attempts: 0, leased: false } });
    expect(held.calls[0]!.signal.aborted).toBe(false);
    expect(errors).toEqual([]);
    await dispatcher.close();
  });

  it('aborts the send and records nothing when a renewal finds the claim gone', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1']);
    const held = heldMailer();
    let renewals = 0;
    // The first renewal (a third of the lease into the send) succeeds; the next one finds
    // another holder.
    const outbox = outboxOf(store, {
      renew: async (...a) => ++renewals === 1 && store.outbox.renew(...a),
    });
    const { dispatcher, errors } = dispatcherFor(store, held.mailer, { leaseMs: 60 }, outbox);
    expect(await dispatcher.drain()).toBe(0);
    const { signal } = held.calls[0]!;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toMatchObject({ name: 'OutboxClaimLost' });
    expect(errors).toEqual([signal.reason]);
    // Neither sent nor failed: the new holder records the outcome.
    expect(states(store).m1).toMatchObject({ state: 'pending', attempts: 0 });
    await dispatcher.close();
  });

  it('aborts the send when no renewal succeeds before the lease ends', async () => {
    // Fake timers (and clocks): the renewals come every third of the lease exactly, whatever
    // the machine's load, so the count of renewals before the abort is exact.
    vi.useFakeTimers();
    try {
      const store = new MemoryUserStore();
      await record(store, ['m1']);
      const held = heldMailer();
      let renewals = 0;
      const outbox = outboxOf(store, {
        renew: async () => {
          renewals++;
          throw new Error('store unreachable');
        },
      });
      const { dispatcher, errors } = dispatcherFor(store, held.mailer, { leaseMs: 60 }, outbox);
      const started = Date.now();
      let drained: number | undefined;
      const draining = dispatcher.drain().then((n) => (drained = n));
      // The claim is fresh, so the send starts without a renewal; the renewals at 20 and 40 ms
      // fail, but the lease the claim took still holds.
      await vi.advanceTimersByTimeAsync(59);
      expect(held.calls).toHaveLength(1);
      expect(drained).toBeUndefined();
      expect(held.calls[0]!.signal.aborted).toBe(false);
      expect(renewals).toBe(2);
      // The renewal at 60 ms fails too, and the lease is over: the send is aborted.
      await vi.advanceTimersByTimeAsync(1);
      await draining;
      expect(drained).toBe(0);
      expect(Date.now() - started).toBe(60);
      expect(held.calls[0]!.signal.reason).toMatchObject({ name: 'OutboxClaimLost' });
      // Each failed renewal is reported; the send went on until the lease was over.
      expect(errors.filter((e) => (e as Error).message === 'store unreachable')).toHaveLength(3);
      expect(renewals).toBe(3);
      // Neither sent nor failed: whoever claims it next sends it.
      expect(states(store).m1).toMatchObject({ state: 'pending', attempts: 0 });
      await dispatcher.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('renews each claim a third of the lease after it was taken, and confirms a later message of the batch before its send', async () => {
    // Fake timers (and clocks), so the times of the renewals are exact.
    vi.useFakeTimers();
    try {
      const store = new MemoryUserStore();
      await record(store, ['m1', 'm2', 'm3']);
      const started = Date.now();
      const log: string[] = [];
      const at = () => Date.now() - started;
      const outbox = outboxOf(store, {
        renew: async (...a) => {
          log.push(`renew ${a[0]} at ${at()}`);
          return store.outbox.renew(...a);
        },
      });
      // m1 takes 50 ms, m2 until 290 ms: nearly the whole 300 ms lease of the batch's claim.
      const takes: Record<string, number> = { m1: 50, m2: 240, m3: 0 };
      const mailer = {
        sendWelcome: async (email: WelcomeEmail) => {
          log.push(`send ${email.id} at ${at()}`);
          await new Promise((resolve) => setTimeout(resolve, takes[email.id]));
        },
      };
      const { dispatcher, errors } = dispatcherFor(store, mailer, { leaseMs: 300 }, outbox);
      const draining = dispatcher.drain();
      await vi.advanceTimersByTimeAsync(400);
      expect(await draining).toBe(3);
      expect(log).toEqual([
        // Claimed a moment ago: sent without a renewal.
        'send m1 at 0',
        'send m2 at 50',
        // The first renewal of m2 comes a third of the lease after the claim, not after its
        // send started, and the next a third later.
        'renew m2 at 100',
        'renew m2 at 200',
        // m3's claim is 290 ms old, its lease nearly over: it is confirmed before the send.
        'renew m3 at 290',
        'send m3 at 290',
      ]);
      expect(errors).toEqual([]);
      await dispatcher.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a sent email whose claim had passed to another sender', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1']);
    const outbox = outboxOf(store, { complete: async () => false });
    const { dispatcher, errors } = dispatcherFor(
      store,
      { sendWelcome: async () => undefined },
      {},
      outbox,
    );
    expect(await dispatcher.drain()).toBe(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      name: 'OutboxClaimLost',
      message: expect.stringMatching(/m1 was sent.*may send it again/),
    });
    await dispatcher.close();
  });

  it('gives up waiting for a Mailer after sendTimeoutMs, aborts it, and counts a failed attempt', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1']);
    let signal: AbortSignal | undefined;
    // A Mailer that ignores the signal and never settles.
    const mailer = {
      sendWelcome: (_email: unknown, options: { signal: AbortSignal }) => {
        signal = options.signal;
        return new Promise<void>(() => undefined);
      },
    };
    const { dispatcher, errors } = dispatcherFor(store, mailer, {
      sendTimeoutMs: 80,
      retryBaseMs: 60_000,
    });
    const started = Date.now();
    expect(await dispatcher.drain()).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(75);
    expect(signal?.reason).toMatchObject({ name: 'OutboxSendTimeout' });
    expect(errors).toEqual([signal?.reason]);
    const [entry] = store.outboxSnapshot();
    expect(entry).toMatchObject({ state: 'pending', attempts: 1 });
    expect(entry!.lastError).toMatch(/did not settle within 80 ms/);
    await dispatcher.close();
  });

  it('keeps a Mailer error bounded and without NUL characters', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1']);
    const mailer = {
      sendWelcome: async () => {
        throw new Error(`bad\0reply ${'x'.repeat(5000)}`);
      },
    };
    const { dispatcher } = dispatcherFor(store, mailer, { maxAttempts: 1 });
    await dispatcher.drain();
    const [entry] = store.outboxSnapshot();
    expect(entry!.lastError).toMatch(/^bad\uFFFDreply x+$/);
    expect(entry!.lastError).toHaveLength(1000);
    await dispatcher.close();
  });

  it.each([
    [{ leaseMs: 0 }, 'outbox.leaseMs'],
    [{ leaseMs: Number.NaN }, 'outbox.leaseMs'],
    [{ sendTimeoutMs: -1 }, 'outbox.sendTimeoutMs'],
    [{ sendTimeoutMs: Number.POSITIVE_INFINITY }, 'outbox.sendTimeoutMs'],
    [{ maxAttempts: 0 }, 'outbox.maxAttempts'],
    [{ pollIntervalMs: -5 }, 'outbox.pollIntervalMs'],
    [{ retryBaseMs: '50' as unknown as number }, 'outbox.retryBaseMs'],
  ])('refuses %o at start', (options, name) => {
    const create = () => dispatcherFor(new MemoryUserStore(), heldMailer().mailer, options);
    expect(create).toThrow(ScimConfigError);
    expect(create).toThrow(name);
  });
});
