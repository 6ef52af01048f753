import type { Mailer } from '../../contracts/mailer.js';
import type { OutboxStore, PendingOutboxMessage } from '../../contracts/outbox.js';
import type { OutboxOptions } from '../options.js';

const BATCH = 20;

/**
 * Delivers the outbox: claims due messages, hands them to the Mailer, and records the outcome,
 * retrying failures with exponential backoff. A mailer failure never reaches the SCIM client.
 */
export class OutboxDispatcher {
  readonly #store: OutboxStore;
  readonly #mailer: Mailer;
  readonly #userExists: (tenant: string, userId: string) => Promise<boolean>;
  readonly #now: () => Date;
  readonly #onError: (error: unknown) => void;
  readonly #maxAttempts: number;
  readonly #retryBaseMs: number;
  readonly #retryMaxMs: number;
  readonly #leaseMs: number;
  #draining: Promise<number> | undefined;
  #again = false;
  #closed = false;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #poll: ReturnType<typeof setInterval> | undefined;

  constructor(
    store: OutboxStore,
    userExists: (tenant: string, userId: string) => Promise<boolean>,
    mailer: Mailer,
    options: OutboxOptions,
    now: () => Date,
    onError: (error: unknown) => void,
  ) {
    this.#store = store;
    this.#userExists = userExists;
    this.#mailer = mailer;
    this.#now = now;
    this.#onError = onError;
    this.#maxAttempts = options.maxAttempts ?? 8;
    this.#retryBaseMs = options.retryBaseMs ?? 1000;
    this.#retryMaxMs = options.retryMaxMs ?? 300_000;
    this.#leaseMs = options.leaseMs ?? 60_000;
    const poll = options.pollIntervalMs ?? 0;
    if (poll > 0) {
      this.#poll = setInterval(() => this.kick(), poll);
      this.#poll.unref?.();
      this.kick();
    }
  }

  /** Starts a delivery round soon, without waiting for it. */
  kick(): void {
    if (this.#closed) return;
    this.drain().catch(this.#onError);
  }

  /** Delivers everything due now; resolves to how many messages were sent. */
  async drain(): Promise<number> {
    if (this.#draining) {
      this.#again = true;
      return this.#draining;
    }
    this.#draining = this.#drainLoop();
    try {
      return await this.#draining;
    } finally {
      this.#draining = undefined;
    }
  }

  async #drainLoop(): Promise<number> {
    let sent = 0;
    do {
      this.#again = false;
      for (;;) {
        const now = this.#now();
        const batch = await this.#store.claim(now, new Date(now.getTime() + this.#leaseMs), BATCH);
        for (const message of batch) {
          // After close(), stop between messages; unsent claims come back when their lease ends.
          if (this.#closed) return sent;
          if (await this.#deliver(message)) sent++;
        }
        if (batch.length < BATCH) break;
      }
    } while (this.#again && !this.#closed);
    return sent;
  }

  async #deliver(message: PendingOutboxMessage): Promise<boolean> {
    const { attempts: _attempts, ...email } = message;
    try {
      // A user deleted before the email went out gets none; the message is settled as done.
      if (!(await this.#userExists(message.tenant, message.userId))) {
        await this.#store.complete(message.id, this.#now());
        return false;
      }
      await this.#mailer.sendWelcome({ ...email, idempotencyKey: message.id });
    } catch (error) {
      this.#onError(error);
      const attempts = message.attempts + 1;
      const reason = error instanceof Error ? error.message : String(error);
      if (attempts >= this.#maxAttempts) {
        await this.#store.fail(message.id, reason, undefined);
      } else {
        const delay = Math.min(this.#retryMaxMs, this.#retryBaseMs * 2 ** (attempts - 1));
        const dueAt = this.#now().getTime() + delay;
        await this.#store.fail(message.id, reason, new Date(dueAt));
        this.#schedule(dueAt);
      }
      return false;
    }
    await this.#store.complete(message.id, this.#now());
    return true;
  }

  /**
   * Starts a delivery round when a retry is due. Node's timers run on the event loop's clock,
   * which lags the wall clock while a turn is busy, so a timer can fire before `now()` reaches
   * the due time; a round then would find nothing due and the retry would wait for the next
   * poll (forever without one). So an early timer waits again for what is left, however often
   * it takes (each wait at least a millisecond; `close()` clears them).
   */
  #schedule(dueAt: number): void {
    if (this.#closed) return;
    const timer = setTimeout(
      () => {
        this.#timers.delete(timer);
        if (this.#now().getTime() < dueAt) this.#schedule(dueAt);
        else this.kick();
      },
      Math.max(1, dueAt - this.#now().getTime()),
    );
    timer.unref?.();
    this.#timers.add(timer);
  }

  /** Stops polling and retries, and waits for a round in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#poll) clearInterval(this.#poll);
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    await this.#draining?.catch(() => undefined);
  }
}
