import type { OutboxMessage } from './outbox.js';

/** A welcome email to deliver. */
export interface WelcomeEmail extends OutboxMessage {
  /** Pass to your email provider so a retried delivery is sent only once. */
  readonly idempotencyKey: string;
}

/**
 * What comes with each send besides the email: one object per send, which a Mailer may keep,
 * spread or copy (`signal` is an own enumerable member).
 */
export interface SendOptions {
  /**
   * Aborted when scimkit stops waiting: after `outbox.sendTimeoutMs`, or when the message's
   * claim passed to another process. Pass it to your HTTP client so the send stops too. Made
   * when first read, so a Mailer that never reads it costs no `AbortController`.
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
