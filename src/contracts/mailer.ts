import type { OutboxMessage } from './outbox.js';

/** A welcome email to deliver. */
export interface WelcomeEmail extends OutboxMessage {
  /** Pass to your email provider so a retried delivery is sent only once. */
  readonly idempotencyKey: string;
}

/**
 * Delivers the emails scimkit decides to send. A rejected promise is retried with backoff
 * (it never fails the SCIM request); the same `idempotencyKey` comes back on every retry.
 *
 * @example
 * ```ts
 * const mailer: Mailer = {
 *   async sendWelcome(email) {
 *     await provider.send({ to: email.to, template: 'welcome', idempotencyKey: email.idempotencyKey });
 *   },
 * };
 * ```
 */
export interface Mailer {
  /** Sends the welcome email of a user who has just been invited. */
  sendWelcome(email: WelcomeEmail): Promise<void>;
}
