import type { MemberGroup } from '../../contracts/group-store.js';
import type { UserStore } from '../../contracts/user-store.js';
import { isScimError } from '../../errors/index.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { PlannedUserWrite, UserKind, UserService } from '../resources/kinds/user.js';
import type { UserLifecycle } from '../scim.js';

/** Builds the host's user API (`scim.users`) over the user service and its rules. */
export function userLifecycle(
  service: UserService,
  kind: UserKind,
  store: UserStore,
): UserLifecycle {
  return {
    activate: (tenant, id) =>
      orNull(written(service, tenant, id, async (current, now) => kind.activation(current, now))),
    async resendInvitation(tenant, id) {
      let queued = false;
      const user = await orNull(
        written(service, tenant, id, async (current) => {
          const planned = kind.invitation(tenant, current);
          // From the attempt that is written: the loop may plan again on a newer version.
          queued = planned !== null;
          return planned;
        }),
      );
      return user !== null && queued;
    },
    // The user as stored: the host API shows no `groups` (see `groups` below).
    get: async (tenant, id) => {
      const user = await store.get(tenant, id);
      return user === null ? null : kind.stored(user);
    },
    groups: (tenant, id) => groupsOf(store, tenant, id),
  };
}

// The user a host API write leaves: the one written, or the current one when nothing changed.
async function written(
  service: UserService,
  tenant: string,
  id: string,
  step: (current: ScimUser, now: string) => Promise<PlannedUserWrite | null>,
): Promise<ScimUser> {
  const { current, done } = await service.update(tenant, id, undefined, step);
  return done === null ? current : done.user;
}

// Lists a user's groups, direct and indirect; `null` when there is no such user.
async function groupsOf(
  store: UserStore,
  tenant: string,
  id: string,
): Promise<readonly MemberGroup[] | null> {
  if ((await store.get(tenant, id)) === null) return null;
  return (await store.groups?.groupsOf(tenant, id)) ?? [];
}

// The host API answers null for a user that is not there, where SCIM answers 404.
async function orNull(write: Promise<ScimUser>): Promise<ScimUser | null> {
  try {
    return await write;
  } catch (error) {
    if (isScimError(error) && error.status === 404) return null;
    throw error;
  }
}
