import type { Mailer } from '../../contracts/mailer.js';
import type { UserStore } from '../../contracts/user-store.js';
import type { EventFeed } from '../events/event-feed.js';
import type { MailDeliveryOptions } from '../options.js';
import { subscribeSettings } from '../subscriptions/subscribe-settings.js';
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
  const options = { ...delivery, types: ['user.invited'] };
  // Checked first under the name the host wrote, `mail.delivery`, not `events.subscribe`.
  subscribeSettings(WELCOME_SUBSCRIBER, options, 'createScim: mail.delivery');
  return feed.subscribe(WELCOME_SUBSCRIBER, welcomeHandler(store, mailer), options);
}
