/** What an outbox message asks for. */
export type OutboxKind = 'welcome';

/**
 * An email recorded with a user's write and delivered after it (the transactional outbox).
 * `id` is also the idempotency key the {@link Mailer} receives.
 */
export interface OutboxMessage {
  /** Unique, and the idempotency key of the delivery. */
  readonly id: string;
  readonly kind: OutboxKind;
  readonly tenant: string;
  readonly userId: string;
  /** The address to send to (the user's userName when the intent was recorded). */
  readonly to: string;
  /** Given and family name when recorded, for a greeting. */
  readonly givenName?: string;
  readonly familyName?: string;
  /** ISO 8601 time the intent was recorded. */
  readonly createdAt: string;
}

/** A claimed outbox message with its delivery state. */
export interface PendingOutboxMessage extends OutboxMessage {
  /** Delivery attempts made before this one. */
  readonly attempts: number;
}

/**
 * The part of a store that keeps the outbox. Claiming takes a lease, so that two processes
 * sharing a store never deliver the same message at the same time.
 */
export interface OutboxStore {
  /**
   * Claims up to `limit` messages that are due at `now` and not sent, and hides them from
   * other claims until `leaseUntil`.
   */
  claim(now: Date, leaseUntil: Date, limit: number): Promise<readonly PendingOutboxMessage[]>;
  /** Records that a message was delivered; it is never claimed again. */
  complete(id: string, at: Date): Promise<void>;
  /**
   * Records a failed attempt. With `retryAt` the message is due again then; without it the
   * message has failed for good and is kept with `error` for inspection.
   */
  fail(id: string, error: string, retryAt: Date | undefined): Promise<void>;
}
