import type { Mailer } from '../../contracts/mailer.js';
import type { UserStore } from '../../contracts/user-store.js';
import { ScimConfigError } from '../../errors/index.js';
import type { EventFeed } from '../events/event-feed.js';
import type { MailDeliveryOptions } from '../options.js';
import type { EventHandler, Subscription } from '../subscriptions/types.js';
import { welcomeEmail } from './welcome-email.js';

/**
 * The name of the durable subscriber that sends welcome emails: the key of its delivery state
 * (checkpoints, attempts, dead letters) in the store, shared by every instance of a service.
 */
export const WELCOME_SUBSCRIBER = 'scimkit.welcome';

/**
 * Returns the handler of the welcome subscriber: for a `user.invited` event, sends the welcome
 * email built from the user the event recorded, keyed by the event's id, unless the user was
 * deleted since (no email then) or has no address.
 */
export function welcomeHandler(store: UserStore, mailer: Mailer): EventHandler {
  return async (event, { signal }) => {
    if ((await store.get(event.tenant, event.data.id)) === null) return;
    const email = welcomeEmail(event);
    if (email === undefined) return;
    await mailer.sendWelcome(email, { signal });
  };
}

/**
 * Starts the welcome subscriber of a service with a mailer; `undefined` without one.
 *
 * @throws ScimConfigError naming the `mail.delivery` option that cannot work.
 */
export function startWelcome(
  feed: EventFeed,
  store: UserStore,
  mailer: Mailer | undefined,
  delivery: MailDeliveryOptions,
): Subscription | undefined {
  if (mailer === undefined) return undefined;
  const handler = welcomeHandler(store, mailer);
  try {
    return feed.subscribe(WELCOME_SUBSCRIBER, handler, { ...delivery, types: ['user.invited'] });
  } catch (error) {
    // The subscriber's own wording names `events.subscribe`; the host wrote `mail.delivery`.
    if (!(error instanceof ScimConfigError)) throw error;
    const prefix = `events.subscribe("${WELCOME_SUBSCRIBER}"):`;
    throw new ScimConfigError(error.message.replace(prefix, 'createScim: mail.delivery:'));
  }
}
