/**
 * A welcome email to deliver, built from the `user.invited` event that asked for it (see
 * docs/lifecycle.md, "The welcome email").
 */
export interface WelcomeEmail {
  /** The id of the `user.invited` event; also the idempotency key. */
  readonly id: string;
  /** What the email is: a welcome email. */
  readonly kind: 'welcome';
  /** The tenant of the user the email is for. */
  readonly tenant: string;
  /** The id of the user the email is for. */
  readonly userId: string;
  /**
   * The address to send to, as the user stood when invited: the userName when it is an email
   * address, else the primary (or first) address in `emails`.
   */
  readonly to: string;
  /** The given name when invited, for a greeting. */
  readonly givenName?: string;
  /** The family name when invited, for a greeting. */
  readonly familyName?: string;
  /** When the user was invited (RFC 3339). */
  readonly createdAt: string;
  /** Pass to your email provider so a retried delivery is sent only once. */
  readonly idempotencyKey: string;
}

/**
 * What comes with each send besides the email: one object per send, which a Mailer may keep,
 * spread or copy (`signal` is an own enumerable member).
 */
export interface SendOptions {
  /**
   * Aborted when scimkit stops waiting, after `mail.delivery.timeoutMs` (the send then counts
   * as failed and is retried). Pass it to your HTTP client so the send stops too.
   */
  readonly signal: AbortSignal;
}

/**
 * Delivers the emails scimkit decides to send. A rejected promise is retried with backoff
 * (it never fails the SCIM request); the same `idempotencyKey` comes back on every retry.
 *
 * @example
 * ```ts
 * const mailer: Mailer = {
 *   async sendWelcome(email, { signal }) {
 *     await provider.send(
 *       { to: email.to, template: 'welcome', idempotencyKey: email.idempotencyKey },
 *       { signal },
 *     );
 *   },
 * };
 * ```
 */
export interface Mailer {
  /** Sends the welcome email of a user who has just been invited. */
  sendWelcome(email: WelcomeEmail, options: SendOptions): Promise<void>;
}
