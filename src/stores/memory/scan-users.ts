import type { ScimUser } from '../../schema/user-resource.js';
import type { TenantUsers } from './tenant-users.js';

/**
 * Collects, in id order, every user of a tenant that satisfies `predicate`. This is the one
 * place the memory store visits all users; index lookups and unfiltered pages never reach it
 * (a test spies on it to prove so).
 *
 * @internal
 */
export function scanUsers(users: TenantUsers, predicate: (user: ScimUser) => boolean): ScimUser[] {
  const found: ScimUser[] = [];
  for (const id of users.order.values()) {
    const user = users.byId.get(id);
    if (user && predicate(user)) found.push(user);
  }
  return found;
}
