import type { ScimUser } from '../../schema/user-resource.js';
import type { TenantUsers } from './tenant-users.js';
import { WORK_COSTS, type WorkMeter } from '../../filter/work-meter.js';

/**
 * Collects, in id order, every user of a tenant that satisfies `predicate`. This is the one
 * place the memory store visits all users; index lookups and unfiltered pages never reach it
 * (a test spies on it to prove so).
 *
 * It walks the id → user map in insertion order, several times faster than looking up each id
 * of the id order, and sorts only the matches, and only when creation order was not id order.
 * Each user visited is charged to `meter` before it is tested.
 *
 * @internal
 */
export function scanUsers(
  users: TenantUsers,
  predicate: (user: ScimUser) => boolean,
  meter: WorkMeter,
): ScimUser[] {
  const found: ScimUser[] = [];
  let ordered = true;
  let lastId = '';
  for (const user of users.byId.values()) {
    meter.spend(WORK_COSTS.visit);
    if (!predicate(user)) continue;
    if (user.id < lastId) ordered = false;
    lastId = user.id;
    found.push(user);
  }
  if (!ordered) found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return found;
}
