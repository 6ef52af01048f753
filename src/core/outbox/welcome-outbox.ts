import type { Mailer } from '../../contracts/mailer.js';
import type { UserStore } from '../../contracts/user-store.js';
import type { OutboxOptions } from '../options.js';
import { OutboxDispatcher } from './outbox-dispatcher.js';

const OUTBOX_METHODS = ['claim', 'renew', 'complete', 'fail', 'release'] as const;

// The store, and the resolved mail settings of `createScim`.
interface MailSetup {
  readonly store: UserStore;
  readonly mailer: Mailer | undefined;
  readonly outbox?: OutboxOptions | undefined;
}

/**
 * Lists what a service with a `mailer` lacks to send (`mailer.sendWelcome()`, the store's
 * `outbox` methods), for `createScim` to name at start; nothing for a service without one,
 * whose store needs no outbox.
 */
export function missingForMail({ store, mailer }: MailSetup): string[] {
  if (mailer === undefined) return [];
  const missing = OUTBOX_METHODS.filter((m) => typeof store?.outbox?.[m] !== 'function').map(
    (m) => `store.outbox.${m}()`,
  );
  // Said once, after the last of them: why a store needs an outbox, and how to do without.
  const last = missing.length - 1;
  if (last >= 0)
    missing[last] +=
      " (a mailer sends through the store's outbox; leave `mailer` out to send no email)";
  if (typeof mailer?.sendWelcome !== 'function') missing.push('mailer.sendWelcome()');
  return missing;
}

/**
 * Returns the dispatcher that delivers the welcome email through the store's outbox, or
 * `undefined` for a service without a `mailer`: it queues nothing. Call it once
 * {@link missingForMail} found nothing missing.
 */
export function welcomeOutbox(
  options: MailSetup,
  now: () => Date,
  reportError: (error: unknown) => void,
): OutboxDispatcher | undefined {
  const { store, mailer } = options;
  if (mailer === undefined || store.outbox === undefined) return undefined;
  return new OutboxDispatcher(
    store.outbox,
    async (tenant, id) => (await store.get(tenant, id)) !== null,
    mailer,
    options.outbox ?? {},
    now,
    reportError,
  );
}
