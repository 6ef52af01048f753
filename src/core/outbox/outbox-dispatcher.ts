import type { Mailer, WelcomeEmail } from '../../contracts/mailer.js';
import type { OutboxStore, PendingOutboxMessage } from '../../contracts/outbox.js';
import type { OutboxOptions } from '../options.js';
import { outboxSettings, retryDelay, type OutboxSettings } from './outbox-settings.js';
import { OutboxClaimLost, SendWatch } from './send-under-lease.js';

const BATCH = 20;
// A mailer's error is kept in the store for inspection: bounded, and without the NUL that a
// PostgreSQL text column refuses.
const MAX_REASON = 1000;

/**
 * Delivers the outbox: claims due messages, hands them to the Mailer, and records the outcome,
 * retrying failures with exponential backoff. A mailer failure never reaches the SCIM client.
 *
 * Every send happens under a claim this process holds: the claim is renewed every third of the
 * lease, from its claim until the Mailer has settled (so a message that waited in its batch for
 * a third of the lease is confirmed just before the Mailer gets it), and the outcome is recorded
 * only under that claim. So without a crash or a stall longer than the lease, no
 * two processes send one message; after one, the Mailer may get it again with the same
 * idempotency key.
 */
export class OutboxDispatcher {
  readonly #store: OutboxStore;
  readonly #mailer: Mailer;
  readonly #userExists: (tenant: string, userId: string) => Promise<boolean>;
  readonly #now: () => Date;
  readonly #onError: (error: unknown) => void;
  readonly #settings: OutboxSettings;
  readonly #watch: SendWatch;
  #draining: Promise<number> | undefined;
  #again = false;
  /** Whether a kick already reports a failure of the round under way. */
  #reported = false;
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
    this.#settings = outboxSettings(options);
    const { leaseMs, sendTimeoutMs: timeoutMs } = this.#settings;
    this.#watch = new SendWatch({ leaseMs, timeoutMs }, now, onError);
    const poll = this.#settings.pollIntervalMs;
    if (poll > 0) {
      this.#poll = setInterval(() => this.kick(), poll);
      this.#poll.unref?.();
      this.kick();
    }
  }

  /** Starts a delivery round soon, without waiting for it. */
  kick(): void {
    if (this.#closed) return;
    // A round under way goes round again, with no promise made per kick (one per created user);
    // its failure is reported once, as a round started here reports it.
    if (this.#draining === undefined) {
      this.drain().catch(this.#onError);
      this.#reported = true;
    } else {
      this.#again = true;
      if (!this.#reported) {
        this.#reported = true;
        this.#draining.catch(this.#onError);
      }
    }
  }

  /** Delivers everything due now; resolves to how many messages were sent (0 once closed). */
  async drain(): Promise<number> {
    if (this.#closed) return 0;
    if (this.#draining) {
      this.#again = true;
      return this.#draining;
    }
    this.#draining = this.#drainLoop();
    this.#reported = false;
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
        const claimedAt = this.#now().getTime();
        const leaseEnds = claimedAt + this.#settings.leaseMs;
        const batch = await this.#store.claim(new Date(claimedAt), new Date(leaseEnds), BATCH);
        for (let i = 0; i < batch.length; i++) {
          // After close(), stop between messages and hand the rest back for others to send now.
          if (this.#closed) {
            await this.#release(batch.slice(i));
            return sent;
          }
          if (await this.#deliver(batch[i]!, leaseEnds)) sent++;
        }
        if (batch.length < BATCH) break;
      }
    } while (this.#again && !this.#closed);
    return sent;
  }

  #leaseEnd(): Date {
    return new Date(this.#now().getTime() + this.#settings.leaseMs);
  }

  // Sends one message of a batch whose claim's lease runs until `leaseEnds`.
  async #deliver(message: PendingOutboxMessage, leaseEnds: number): Promise<boolean> {
    const { id, claimToken } = message;
    try {
      // A user deleted before the email went out gets none: the message is settled as done.
      if (!(await this.#userExists(message.tenant, message.userId))) {
        await this.#store.complete(id, claimToken, this.#now());
        return false;
      }
      // close() came while the user was looked up: the send has not started, so hand it back.
      if (this.#closed) {
        await this.#release([message]);
        return false;
      }
      // The watch confirms the claim first when it is older than a third of the lease: later
      // messages of a batch wait for the earlier ones, and another process may hold them now.
      const sending = this.#watch.run(
        leaseEnds,
        () => this.#store.renew(id, claimToken, this.#leaseEnd()),
        (options) => this.#mailer.sendWelcome(welcomeEmail(message), options),
      );
      if (!(await sending)) return false;
    } catch (error) {
      this.#onError(error);
      // Another process holds the message now and records its outcome.
      if (error instanceof OutboxClaimLost) return false;
      await this.#fail(message, error);
      return false;
    }
    if (!(await this.#store.complete(id, claimToken, this.#now()))) {
      this.#onError(
        new OutboxClaimLost(
          `Outbox message ${id} was sent, but its claim had passed to another sender, which may send it again (with the same idempotency key). Make outbox.leaseMs longer than the longest stall of this process.`,
        ),
      );
    }
    return true;
  }

  async #fail(message: PendingOutboxMessage, error: unknown): Promise<void> {
    const attempts = message.attempts + 1;
    const text = error instanceof Error ? error.message : String(error);
    const reason = text.replaceAll('\0', '\uFFFD').slice(0, MAX_REASON);
    if (attempts >= this.#settings.maxAttempts) {
      await this.#store.fail(message.id, message.claimToken, reason, undefined);
      return;
    }
    const dueAt = this.#now().getTime() + retryDelay(this.#settings, attempts);
    if (await this.#store.fail(message.id, message.claimToken, reason, new Date(dueAt)))
      this.#schedule(dueAt);
  }

  /** Hands claimed, unsent messages back; one that fails to go back waits out its lease. */
  async #release(messages: readonly PendingOutboxMessage[]): Promise<void> {
    const results = await Promise.allSettled(
      messages.map((m) => this.#store.release(m.id, m.claimToken)),
    );
    for (const r of results) if (r.status === 'rejected') this.#onError(r.reason);
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

  /**
   * Stops polling and retries, waits for the send in flight (at most `sendTimeoutMs`) and
   * records its outcome, and hands every message claimed but not sent back to the store, so
   * another process (or the next start) sends it at once instead of after the lease.
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#poll) clearInterval(this.#poll);
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    await this.#draining?.catch(() => undefined);
    this.#watch.stop();
  }
}

// The email of a claimed message: the message without its delivery state, keyed by its id.
// Written out member by member: the members of an email, and no others.
function welcomeEmail(message: PendingOutboxMessage): WelcomeEmail {
  const { id, kind, tenant, userId, to, createdAt, givenName, familyName } = message;
  const email: { -readonly [K in keyof WelcomeEmail]: WelcomeEmail[K] } = {
    id,
    kind,
    tenant,
    userId,
    to,
    createdAt,
    idempotencyKey: id,
  };
  if (givenName !== undefined) email.givenName = givenName;
  if (familyName !== undefined) email.familyName = familyName;
  return email;
}
