import { setMember } from '../../json/json-value.js';
import type { MemberGroup } from '../../contracts/group-store.js';
import type { UserStore } from '../../contracts/user-store.js';
import type { Projector } from '../../schema/project-resource.js';
import type { ScimUser } from '../../schema/user-resource.js';

/** One value of the User's readOnly `groups` attribute, as a response shows it. */
export interface UserGroupValue {
  /** The group's id. */
  readonly value: string;
  /** The group's URL: `<base>/Groups/<id>`. */
  readonly $ref: string;
  /** The group's `displayName`. */
  readonly display: string;
  /** `direct`, or `indirect` through nested groups. */
  readonly type: 'direct' | 'indirect';
}

// Every sub-attribute set: a projection that keeps any of them keeps `groups`.
const PROBE = {
  groups: [{ value: 'g', $ref: 'r', display: 'd', type: 'direct' }],
} as const;

/**
 * Tells whether a response shaped by `project` shows the User's `groups` (no projection: it
 * does, being `returned: default`). Asked of the projector itself, so the rule of what
 * `attributes` / `excludedAttributes` keep stays in one place.
 */
export function keepsGroups(project: Projector | undefined): boolean {
  return project === undefined || project(PROBE).groups !== undefined;
}

/**
 * Returns `user` with its `groups` computed from `groups` (absent when there are none; a
 * stored value is never shown), `meta` kept last. `user` itself is not changed.
 */
export function withGroupValues(
  user: ScimUser,
  groups: readonly MemberGroup[] | undefined,
  groupsUrl: string,
): ScimUser {
  const none = groups === undefined || groups.length === 0;
  if (none && user.groups === undefined) return user;
  // One pass in the user's order, as `assembleUser` builds users: an object spread with
  // excluded keys costs several times more and leaves a slower object to serialise.
  const out: Record<string, unknown> = {};
  for (const key in user) {
    if (key === 'groups' || key === 'meta') continue;
    setMember(out, key, user[key]);
  }
  if (!none) {
    out.groups = groups.map(({ value, display, type }): UserGroupValue => ({
      value,
      $ref: `${groupsUrl}/${value}`,
      display,
      type,
    }));
  }
  out.meta = user.meta;
  return out as ScimUser;
}

/**
 * Adds each user's `groups` (direct and indirect, computed from memberships) when the response
 * shaped by `project` shows them and the store keeps groups: those the store read with the
 * users (`groupsReadWith`), else one store read for all. Otherwise asks the store nothing and
 * resolves to `users` as they are.
 */
export async function expandGroups(
  store: UserStore,
  tenant: string,
  users: readonly ScimUser[],
  groupsUrl: string,
  project: Projector | undefined,
): Promise<readonly ScimUser[]> {
  const groups = store.groups;
  if (!groups || users.length === 0 || !keepsGroups(project)) return users;
  const read = readWith(store, users);
  if (read) return users.map((user, i) => withGroupValues(user, read[i], groupsUrl));
  const found = await groups.groupsOfMembers(
    tenant,
    users.map((user) => user.id),
  );
  return users.map((user) => withGroupValues(user, found.get(user.id), groupsUrl));
}

// The groups the store read with each of `users`, or `undefined` unless it read them for all.
function readWith(
  store: UserStore,
  users: readonly ScimUser[],
): (readonly MemberGroup[])[] | undefined {
  if (!store.groupsReadWith) return undefined;
  const read: (readonly MemberGroup[])[] = [];
  for (const user of users) {
    const groups = store.groupsReadWith(user);
    if (groups === undefined) return undefined;
    read.push(groups);
  }
  return read;
}
