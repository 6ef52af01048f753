import { describe, expect, it } from 'vitest';
import { OutboxDispatcher } from '../../src/core/outbox/outbox-dispatcher.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { createUserFactory } from '../../src/testing/index.js';
import { dispatcherFor, heldMailer, outboxOf, record, sleep, states } from './outbox-harness.js';

describe('closing the outbox dispatcher', () => {
  it('waits for the send in flight, records it, and hands the rest of its batch back at once', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1', 'm2', 'm3']);
    const held = heldMailer();
    const { dispatcher } = dispatcherFor(store, held.mailer, {});
    const draining = dispatcher.drain();
    await expect.poll(() => held.calls.length).toBe(1);
    let closed = false;
    const closing = dispatcher.close().then(() => (closed = true));
    await sleep(50);
    expect(closed, 'close() waits for the send in flight').toBe(false);
    held.settle('m1');
    await closing;
    expect(await draining).toBe(1);
    expect(held.calls.map((c) => c.email.id)).toEqual(['m1']);
    expect(held.calls[0]!.signal.aborted).toBe(false);
    expect(states(store)).toEqual({
      m1: { state: 'sent', attempts: 0, leased: false },
      m2: { state: 'pending', attempts: 0, leased: false },
      m3: { state: 'pending', attempts: 0, leased: false },
    });
    // Another instance (or the next start) sends them now, not after the 60 s lease.
    const next = heldMailer();
    next.settleAll();
    const { dispatcher: other } = dispatcherFor(store, next.mailer, {});
    expect(await other.drain()).toBe(2);
    expect(next.calls.map((c) => c.email.id)).toEqual(['m2', 'm3']);
    await other.close();
  });

  it('hands back a batch whose claim returned after close()', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1', 'm2']);
    const held = heldMailer();
    let claimed!: () => void;
    const claimReturned = new Promise<void>((resolve) => (claimed = resolve));
    const outbox = outboxOf(store, {
      claim: async (...a) => {
        const batch = await store.outbox.claim(...a);
        await claimReturned;
        return batch;
      },
    });
    const { dispatcher } = dispatcherFor(store, held.mailer, {}, outbox);
    const draining = dispatcher.drain();
    const closing = dispatcher.close();
    claimed();
    await closing;
    expect(await draining).toBe(0);
    expect(held.calls).toEqual([]);
    expect(Object.values(states(store)).every((s) => !s.leased && s.state === 'pending')).toBe(
      true,
    );
  });

  it('hands back a message whose send had not started when close() came', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1']);
    const held = heldMailer();
    let looked!: () => void;
    const lookup = new Promise<void>((resolve) => (looked = resolve));
    const dispatcher = new OutboxDispatcher(
      store.outbox,
      async () => {
        await lookup;
        return true;
      },
      held.mailer,
      {},
      () => new Date(),
      () => undefined,
    );
    const draining = dispatcher.drain();
    await sleep(10);
    const closing = dispatcher.close();
    looked();
    await closing;
    expect(await draining).toBe(0);
    expect(held.calls).toEqual([]);
    expect(states(store).m1).toEqual({ state: 'pending', attempts: 0, leased: false });
  });

  it('claims nothing when asked to deliver after close()', async () => {
    const store = new MemoryUserStore();
    await record(store, ['m1']);
    const held = heldMailer();
    const { dispatcher } = dispatcherFor(store, held.mailer, {});
    await dispatcher.close();
    expect(await dispatcher.drain()).toBe(0);
    expect(states(store).m1).toEqual({ state: 'pending', attempts: 0, leased: false });
  });

  it('is what scim.close() does, and a new instance on the store sends what was handed back', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory('t');
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const user = users.make({ active: true });
      const welcome = users.message(user);
      ids.push(welcome.id);
      await store.create('t', user, { outbox: [welcome] });
    }
    const held = heldMailer();
    const options = {
      store,
      verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
      outbox: { pollIntervalMs: 10 },
    };
    const scim = createScim({ ...options, mailer: held.mailer });
    await expect.poll(() => held.calls.length).toBe(1);
    const closing = scim.close();
    held.settle(ids[0]!);
    await closing;
    expect(held.calls.map((c) => c.email.id)).toEqual([ids[0]]);
    const next = heldMailer();
    next.settleAll();
    const again = createScim({ ...options, mailer: next.mailer });
    expect(await again.dispatchOutbox()).toBe(1);
    expect(next.calls.map((c) => c.email.id)).toEqual([ids[1]]);
    await again.close();
  });
});
