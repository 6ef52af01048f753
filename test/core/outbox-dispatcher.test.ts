import { describe, expect, it } from 'vitest';
import type { WelcomeEmail } from '../../src/index.js';
import { OutboxDispatcher } from '../../src/core/outbox/outbox-dispatcher.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { record } from './outbox-harness.js';

function dispatcher(
  exists: (userId: string) => boolean,
  send: (email: WelcomeEmail) => Promise<void>,
  maxAttempts = 8,
) {
  const store = new MemoryUserStore();
  const outbox = new OutboxDispatcher(
    store.outbox,
    async (_tenant, userId) => exists(userId),
    { sendWelcome: send },
    { maxAttempts, retryBaseMs: 60_000 },
    () => new Date(),
    () => undefined,
  );
  return { store, outbox };
}

describe('the outbox dispatcher', () => {
  it('sends nothing for a user deleted before delivery, and settles the message', async () => {
    const sent: string[] = [];
    const { store, outbox } = dispatcher(
      (userId) => userId !== 'user-gone',
      async (email) => void sent.push(email.id),
    );
    await record(store, ['gone', 'here']);
    expect(await outbox.drain()).toBe(1);
    expect(sent).toEqual(['here']);
    expect(await outbox.drain()).toBe(0);
    expect(store.outboxSnapshot().map((e) => [e.message.id, e.state])).toEqual([
      ['gone', 'sent'],
      ['here', 'sent'],
    ]);
    await outbox.close();
  });

  it('keeps a message as failed after maxAttempts, with the error', async () => {
    const { store, outbox } = dispatcher(
      () => true,
      async () => {
        throw new Error('SMTP refused');
      },
      1,
    );
    await record(store, ['m']);
    expect(await outbox.drain()).toBe(0);
    const [entry] = store.outboxSnapshot();
    expect(entry).toMatchObject({
      message: { id: 'm' },
      state: 'failed',
      attempts: 1,
      lastError: 'SMTP refused',
    });
    await outbox.close();
  });

  it('retries when the retry is due by its clock, even if the timer fires before that', async () => {
    // Node's timers run on the event loop's clock, which lags the wall clock while the process
    // is busy; a clock that runs at half speed makes every timer fire early by that measure.
    const start = Date.now();
    const halfSpeed = () => new Date(start + (Date.now() - start) / 2);
    const store = new MemoryUserStore();
    let calls = 0;
    const delivered: string[] = [];
    const outbox = new OutboxDispatcher(
      store.outbox,
      async () => true,
      {
        async sendWelcome(email) {
          if (++calls === 1) throw new Error('SMTP down');
          delivered.push(email.idempotencyKey);
        },
      },
      { retryBaseMs: 20 },
      halfSpeed,
      () => undefined,
    );
    await record(store, ['m']);
    expect(await outbox.drain()).toBe(0);
    await expect.poll(() => delivered, { timeout: 5_000 }).toEqual(['m']);
    expect(calls).toBe(2);
    await outbox.close();
  });
});
