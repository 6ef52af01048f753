import type {
  Mailer,
  OutboxMessage,
  OutboxOptions,
  OutboxStore,
  SendOptions,
  WelcomeEmail,
} from '../../src/index.js';
import { OutboxDispatcher } from '../../src/core/outbox/outbox-dispatcher.js';
import type { MemoryUserStore } from '../../src/stores/memory/index.js';
import { createUserFactory } from '../../src/testing/index.js';

/** Returns a welcome message for user `user-<id>` of tenant `t`. */
export const message = (id: string): OutboxMessage => ({
  id,
  kind: 'welcome',
  tenant: 't',
  userId: `user-${id}`,
  to: `${id}@example.org`,
  createdAt: new Date(0).toISOString(),
});

/** Records messages the way the core does: in the same write as a user. */
export async function record(store: MemoryUserStore, ids: string[]): Promise<void> {
  await store.create('t', createUserFactory('t').make(), { outbox: ids.map(message) });
}

/** One call the dispatcher made to the Mailer. */
export interface MailerCall {
  readonly email: WelcomeEmail;
  readonly signal: AbortSignal;
}

/**
 * A Mailer whose sends wait until the test settles them: `calls` lists every send, `settle(id)`
 * lets the send of message `id` succeed, `settleAll` lets every current and later send succeed.
 */
export function heldMailer() {
  const calls: MailerCall[] = [];
  const waiting = new Map<string, () => void>();
  let open = false;
  return {
    calls,
    mailer: {
      sendWelcome(email: WelcomeEmail, options: SendOptions) {
        calls.push({ email, signal: options.signal });
        if (open) return Promise.resolve();
        return new Promise<void>((resolve, reject) => {
          waiting.set(email.id, resolve);
          options.signal.addEventListener('abort', () => reject(options.signal.reason));
        });
      },
    },
    settle(id: string) {
      waiting.get(id)?.();
      waiting.delete(id);
    },
    settleAll() {
      open = true;
      for (const resolve of waiting.values()) resolve();
      waiting.clear();
    },
  };
}

/** A dispatcher for `store` (or its outbox replaced by `outbox`), collecting what it reports. */
export function dispatcherFor(
  store: MemoryUserStore,
  mailer: Mailer,
  options: OutboxOptions,
  outbox: OutboxStore = store.outbox,
) {
  const errors: unknown[] = [];
  const dispatcher = new OutboxDispatcher(
    outbox,
    async () => true,
    mailer,
    options,
    () => new Date(),
    (error) => errors.push(error),
  );
  return { dispatcher, errors };
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Returns the state of every message of `store`'s outbox by id. */
export function states(store: MemoryUserStore) {
  return Object.fromEntries(
    store.outboxSnapshot().map((e) => [
      e.message.id,
      {
        state: e.state,
        attempts: e.attempts,
        leased: e.leaseUntil !== undefined && Date.parse(e.leaseUntil) > Date.now(),
      },
    ]),
  );
}

/** The memory store's outbox with some of its methods replaced, to break it on purpose. */
export function outboxOf(store: MemoryUserStore, overrides: Partial<OutboxStore>): OutboxStore {
  const o = store.outbox;
  return {
    claim: (...a) => o.claim(...a),
    renew: (...a) => o.renew(...a),
    complete: (...a) => o.complete(...a),
    fail: (...a) => o.fail(...a),
    release: (...a) => o.release(...a),
    ...overrides,
  };
}
