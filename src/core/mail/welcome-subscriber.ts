import type { Mailer } from '../../contracts/mailer.js';
import type { UserStore } from '../../contracts/user-store.js';
import type { EventFeedService } from '../events/event-feed.js';
import type { Filter } from '../../filter/ast.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { MailDeliveryOptions } from '../options.js';
import { subscribeSettings } from '../subscriptions/subscribe-settings.js';
import type { EventHandler, PagePreparer, Subscription } from '../subscriptions/types.js';
import { welcomeEmail } from './welcome-email.js';

/**
 * The name of the durable subscriber that sends welcome emails: the key of its delivery state
 * (checkpoints, attempts, dead letters) in the store, shared by every instance of a service.
 */
export const WELCOME_SUBSCRIBER = 'scimkit.welcome';

/** How long a page's read of which users exist stands in for a read of its own, in ms. */
const PREPARED_FOR_MS = 1_000;

/** Which users of a page of one tenant's events still existed, and when that was read. */
interface Prepared {
  readonly at: number;
  readonly exists: Map<string, boolean>;
}

/**
 * The welcome subscriber's handler and its page reader. For a `user.invited` event, the
 * handler sends the welcome email built from the user the event recorded, keyed by the event's
 * id, unless the user was deleted since (no email then) or has no address. Whether the users
 * still exist is read for a whole page of the tenant's events at once (`id eq` terms): a count
 * of them, and a list of them only when the count says some are gone, so that a burst of
 * creates costs one count per page, not one read per email; a user the page's read did not
 * cover, or one read over a second ago, is read alone.
 */
export function welcomeDelivery(
  store: UserStore,
  mailer: Mailer,
  resourceType: CompiledResourceType,
): { readonly handler: EventHandler; readonly prepare: PagePreparer } {
  // One entry per tenant being delivered: this process delivers a tenant in one task at a
  // time, and each page (or batch of dead letters) replaces its tenant's entry.
  const prepared = new Map<string, Prepared>();
  const exists = async (tenant: string, id: string): Promise<boolean> => {
    const page = prepared.get(tenant);
    const known = page?.exists.get(id);
    if (page !== undefined && known !== undefined) {
      page.exists.delete(id);
      if (page.exists.size === 0) prepared.delete(tenant);
      if (performance.now() - page.at <= PREPARED_FOR_MS) return known;
    }
    return (await store.get(tenant, id)) !== null;
  };
  return {
    async handler(event, { signal }) {
      if (!(await exists(event.tenant, event.data.id))) return;
      const email = welcomeEmail(event);
      if (email === undefined) return;
      await mailer.sendWelcome(email, { signal });
    },
    async prepare(tenant, events) {
      prepared.delete(tenant);
      const ids = [...new Set(events.map((event) => event.data.id))];
      if (ids.length < 2) return;
      const filter = idIn(ids);
      if (store.capabilities?.supportsFilter?.(filter) === false) return;
      const at = performance.now();
      const query = { filter, startIndex: 1, resourceType };
      try {
        // Counted first: in a burst of creates every invited user still exists, and a count
        // reads no user. Only when some are gone are the users listed, to tell which.
        const { totalResults } = await store.list(tenant, { ...query, count: 0 });
        const found =
          totalResults === ids.length
            ? new Set(ids)
            : new Set(
                (await store.list(tenant, { ...query, count: ids.length })).resources.map(
                  (user) => user.id,
                ),
              );
        prepared.set(tenant, { at, exists: new Map(ids.map((id) => [id, found.has(id)])) });
      } catch {
        // Each handler call reads its user alone, and meets the store's failure there.
      }
    },
  };
}

// `id eq "a" or id eq "b" or …` (at least one id), balanced so that its depth grows with the
// log of its size.
function idIn(ids: readonly string[]): Filter {
  if (ids.length === 1)
    return { kind: 'compare', path: { attribute: 'id' }, op: 'eq', value: ids[0] as string };
  const half = ids.length >> 1;
  return { kind: 'or', left: idIn(ids.slice(0, half)), right: idIn(ids.slice(half)) };
}

/**
 * Starts the welcome subscriber of a service with a mailer; `undefined` without one.
 *
 * @throws ScimConfigError naming the `mail.delivery` option that cannot work.
 */
export function startWelcome(
  feed: EventFeedService,
  store: UserStore,
  mailer: Mailer | undefined,
  delivery: MailDeliveryOptions,
  resourceType: CompiledResourceType,
): Subscription | undefined {
  if (mailer === undefined) return undefined;
  const options = { ...delivery, types: ['user.invited'] };
  // Checked first under the name the host wrote, `mail.delivery`, not `events.subscribe`.
  subscribeSettings(WELCOME_SUBSCRIBER, options, 'createScim: mail.delivery');
  const { handler, prepare } = welcomeDelivery(store, mailer, resourceType);
  return feed.subscribeBuiltIn(WELCOME_SUBSCRIBER, handler, options, prepare);
}
