import type { Mailer } from '../../contracts/mailer.js';
import type { UserStore } from '../../contracts/user-store.js';
import { ScimConfigError } from '../../errors/index.js';
import type { MailDeliveryOptions, MailOptions } from '../options.js';

/**
 * Lists what a service with a `mailer` lacks to send (`mailer.sendWelcome()`, the store's
 * event log and subscription state, which the welcome subscriber reads and keeps its delivery
 * in); nothing for a service without one.
 */
export function missingForMail(store: UserStore, mailer: Mailer | undefined): string[] {
  if (mailer === undefined) return [];
  const missing: string[] = [];
  if (store?.events === undefined) missing.push('store.events');
  if (store?.subscriptions === undefined) missing.push('store.subscriptions');
  // Said once, after the last of them: why a store needs them, and how to do without.
  const last = missing.length - 1;
  if (last >= 0)
    missing[last] +=
      ' (a mailer sends from the event log through a durable subscriber; leave `mail.mailer` out to send no email)';
  if (typeof mailer?.sendWelcome !== 'function') missing.push('mailer.sendWelcome()');
  return missing;
}

/**
 * The delivery defaults of the welcome subscriber that differ from any subscriber's. No
 * polling: a write wakes the subscriber of its own process, a failure its retry timer, and a
 * start its first round, which is what an email needs; a host with several instances may
 * poll to pick up what a crashed one left sooner.
 */
const MAIL_DEFAULTS = {
  timeoutMs: 30_000,
  maxAttempts: 8,
  pollIntervalMs: 0,
  backoff: { initialMs: 1000, maxMs: 300_000 },
} as const;

/**
 * Resolves how the welcome subscriber delivers: `mail.delivery`, or the deprecated
 * `mail.outbox` (and flat `outbox`) under its former names, over the mail defaults.
 *
 * @throws ScimConfigError when `mail.delivery` and `mail.outbox` are both given.
 */
export function mailDelivery(mail: MailOptions): MailDeliveryOptions {
  const { delivery, outbox } = mail;
  if (delivery !== undefined && outbox !== undefined)
    throw new ScimConfigError(
      'createScim: mail.delivery and mail.outbox (or outbox) are both given; give only mail.delivery (mail.outbox is a deprecated alias).',
    );
  const given: MailDeliveryOptions = delivery ?? {
    ...defined({
      maxAttempts: outbox?.maxAttempts,
      leaseMs: outbox?.leaseMs,
      timeoutMs: outbox?.sendTimeoutMs,
      pollIntervalMs: outbox?.pollIntervalMs,
    }),
    backoff: defined({ initialMs: outbox?.retryBaseMs, maxMs: outbox?.retryMaxMs }),
  };
  const { backoff, ...rest } = given;
  return {
    ...MAIL_DEFAULTS,
    ...defined(rest),
    backoff: { ...MAIL_DEFAULTS.backoff, ...defined({ ...backoff }) },
  };
}

// The members of `values` that are set.
function defined<T extends object>(values: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}
