/** What an outbox message asks for. */
export type OutboxKind = 'welcome';

/**
 * An email recorded with a user's write and delivered after it (the transactional outbox).
 * `id` is also the idempotency key the {@link Mailer} receives.
 */
export interface OutboxMessage {
  /** Unique, and the idempotency key of the delivery. */
  readonly id: string;
  /** What the message asks for: a welcome email. */
  readonly kind: OutboxKind;
  /** The tenant of the user the email is for. */
  readonly tenant: string;
  /** The id of the user the email is for. */
  readonly userId: string;
  /**
   * The address to send to, chosen when the intent was recorded: the userName when it is an
   * email address, else the primary (or first) address in `emails`.
   */
  readonly to: string;
  /** Given and family name when recorded, for a greeting. */
  readonly givenName?: string;
  /** The family name when recorded, for a greeting. */
  readonly familyName?: string;
  /** ISO 8601 time the intent was recorded. */
  readonly createdAt: string;
}

/** A claimed outbox message with its delivery state and the claim that holds it. */
export interface PendingOutboxMessage extends OutboxMessage {
  /** Delivery attempts made before this one. */
  readonly attempts: number;
  /**
   * The fencing token of this claim: unique per claim of a message, chosen by the store. Only
   * the current token renews, completes, fails or releases the message; a later claim (after
   * the lease ran out) or a settle makes it stale.
   */
  readonly claimToken: string;
}

/**
 * The part of a store that keeps the outbox. A claim takes a lease and hands out a fencing
 * token, so that two processes sharing a store never deliver the same message: every change
 * after the claim is conditional on the token still being the message's current one, and
 * reports whether it took effect.
 */
export interface OutboxStore {
  /**
   * Claims up to `limit` messages that are due at `now`, not settled, and not under a lease
   * (none, or one that ended by `now`); hides them from other claims until `leaseUntil` and
   * gives each a new `claimToken`, which makes every earlier token of that message stale.
   */
  claim(now: Date, leaseUntil: Date, limit: number): Promise<readonly PendingOutboxMessage[]>;
  /**
   * Extends the lease to `leaseUntil` while `claimToken` is current, even when the lease has
   * run out meanwhile (no one else claimed it); resolves to whether it did.
   */
  renew(id: string, claimToken: string, leaseUntil: Date): Promise<boolean>;
  /**
   * Records that a message was delivered, if `claimToken` is current; it is never claimed
   * again. Resolves to whether it did.
   */
  complete(id: string, claimToken: string, at: Date): Promise<boolean>;
  /**
   * Records a failed attempt, if `claimToken` is current, and ends the claim. With `retryAt`
   * the message is due again then; without it the message has failed for good and is kept
   * with `error` for inspection. Resolves to whether it did.
   */
  fail(id: string, claimToken: string, error: string, retryAt: Date | undefined): Promise<boolean>;
  /**
   * Hands a claimed message back unsent, if `claimToken` is current: ends the claim without
   * counting an attempt, so the message is claimable at once. Resolves to whether it did.
   */
  release(id: string, claimToken: string): Promise<boolean>;
}
