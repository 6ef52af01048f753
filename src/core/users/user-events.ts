import type { ScimUser } from '../../schema/user-resource.js';
import type { ChangedAttributes, ScimEvent } from '../events/types.js';
import { changedAttributes } from '../resources/events.js';
import { isActiveUser } from './account-status.js';
import { ACCOUNT_SCHEMA } from '../../schema/urns.js';

// Members the core keeps by itself: a change to them alone is not a `user.updated`.
const BOOKKEEPING: ReadonlySet<string> = new Set(['meta', 'schemas', ACCOUNT_SCHEMA]);

/**
 * Lists the attributes a client controls whose values differ between two versions of a user:
 * the `changed` of a `user.updated`.
 */
export function changedUserAttributes(before: ScimUser, after: ScimUser): string[] {
  return changedAttributes(before, after, BOOKKEEPING);
}

/**
 * Lists the lifecycle events of one write, from the user before and after it: `before` null
 * for a creation, `after` null for a deletion (of the user `id`). `changed` is what the write
 * changed of the attributes a client controls (see {@link changedUserAttributes}), known to
 * whoever planned it.
 *
 * - `user.updated` when an attribute a client controls changed (its names in `changed`);
 * - `user.deactivated` / `user.reactivated` when `active` went false / back to true (an
 *   unassigned `active` counts as what the status says, see `isActiveUser`): a user
 *   made active for the first time (`Pending` → `Invited`) is not reactivated;
 * - `user.activated` on the person's first login (`Invited` → `Activated` without a change of
 *   `active`).
 *
 * A write no client sees (an invitation sent again) has none of these; the User's kind adds
 * `user.invited` to any write that asks for a welcome email.
 */
export function userEvents(
  tenant: string,
  at: string,
  id: string,
  before: ScimUser | null,
  after: ScimUser | null,
  changed: ChangedAttributes,
): ScimEvent[] {
  if (after === null) return [{ type: 'user.deleted', tenant, at, id }];
  if (before === null) return [{ type: 'user.created', tenant, at, user: after }];
  const events: ScimEvent[] = [];
  if (changed.length > 0) events.push({ type: 'user.updated', tenant, at, before, after, changed });
  const wasActive = isActiveUser(before);
  const isActive = isActiveUser(after);
  if (wasActive && !isActive) {
    events.push({ type: 'user.deactivated', tenant, at, user: after });
  } else if (!wasActive && isActive) {
    if (before[ACCOUNT_SCHEMA].status !== 'Pending') {
      events.push({ type: 'user.reactivated', tenant, at, user: after });
    }
  } else if (
    before[ACCOUNT_SCHEMA].status === 'Invited' &&
    after[ACCOUNT_SCHEMA].status === 'Activated'
  ) {
    events.push({ type: 'user.activated', tenant, at, user: after });
  }
  return events;
}
