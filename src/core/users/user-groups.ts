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
 * Returns the groups a store handed over on `user` (see `UserStore.get`): its `groups`, as the
 * store read them with the user, without `$ref`; `undefined` when it carries none.
 */
export function carriedGroups(user: ScimUser): readonly MemberGroup[] | undefined {
  return user.groups as readonly MemberGroup[] | undefined;
}

/**
 * Returns `user` with `groups` as its `groups` member (none when `undefined`), `meta` kept
 * last; `user` itself when that changes nothing. `user` is not changed.
 */
export function withGroupsMember(user: ScimUser, groups: readonly unknown[] | undefined): ScimUser {
  if (groups === undefined && user.groups === undefined) return user;
  // One pass in the user's order, as `assembleUser` builds users: an object spread with
  // excluded keys costs several times more and leaves a slower object to serialise.
  const out: Record<string, unknown> = {};
  for (const key in user) {
    if (key === 'groups' || key === 'meta') continue;
    setMember(out, key, user[key]);
  }
  if (groups !== undefined) out.groups = groups;
  out.meta = user.meta;
  return out as ScimUser;
}

/**
 * Returns `user` with its `groups` as a response shows them, from `groups` (absent when there
 * are none), each with its `$ref`, `meta` kept last. `user` itself is not changed.
 */
export function withGroupValues(
  user: ScimUser,
  groups: readonly MemberGroup[] | undefined,
  groupsUrl: string,
): ScimUser {
  const values =
    groups === undefined || groups.length === 0
      ? undefined
      : groups.map(({ value, display, type }): UserGroupValue => ({
          value,
          $ref: `${groupsUrl}/${value}`,
          display,
          type,
        }));
  return withGroupsMember(user, values);
}

/**
 * Adds each user's `groups` (direct and indirect) when the response shaped by `project` shows
 * them and the store keeps groups: those a user carries (the store read them with it, see
 * `UserStore.get`), else, for the users that carry none, one store read for all of them.
 * Otherwise asks the store nothing and resolves to `users` as they are.
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
  const unread: string[] = [];
  for (const user of users) if (carriedGroups(user) === undefined) unread.push(user.id);
  const found = unread.length === 0 ? undefined : await groups.groupsOfMembers(tenant, unread);
  return users.map((user) =>
    withGroupValues(user, carriedGroups(user) ?? found?.get(user.id), groupsUrl),
  );
}
