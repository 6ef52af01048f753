import type { GroupMember, ScimGroup } from '../schema/group-schema.js';
import type { MembershipEventEffects } from './event-log.js';
import type { ListQuery, StorePage } from './store-query.js';
import type { MemberInput, MembershipDeltas, TypeStore } from './type-store.js';

export type {
  MemberInput,
  MemberPageOptions,
  MembershipChange,
  MembershipDeltas,
  MembershipOptions,
} from './type-store.js';

/** Options of {@link GroupStore.get} and of a group list. */
export interface GroupReadOptions {
  /**
   * Whether to read the members. Default `true`. With `false` the store reads no membership
   * at all (what `excludedAttributes=members` needs), whatever the size of the group.
   */
  readonly members?: boolean;
}

/** Options of {@link GroupStore.replace}. */
export interface GroupReplaceOptions extends MembershipEventEffects {
  /** The `meta.version` the write is based on; a stale one throws `versionConflict`. */
  readonly expectedVersion: string;
  /**
   * The whole new member list. Omitted: the memberships stay exactly as they are (a rename
   * costs the same for a group of 100,000 members as for an empty one).
   */
  readonly members?: readonly MemberInput[];
  /**
   * Ids of members to remove, in the same atomic step as the rest of the write (after
   * `members`, before `addMembers`); ids that are not members are ignored. With `addMembers`,
   * what lets a PATCH that renames a group and changes one member be one write that costs the
   * same whatever the size of the group.
   */
  readonly removeMembers?: readonly string[];
  /**
   * Members to add, in the same atomic step (last); a member already there stays as it is.
   * Refused as {@link GroupStore.addMembers} refuses, with nothing written.
   */
  readonly addMembers?: readonly MemberInput[];
}

/** What {@link GroupStore.replace} did to the memberships. */
export interface GroupReplaceResult {
  /** Members the write added (the new list's, then `addMembers`'), each once. */
  readonly added: readonly GroupMember[];
  /** Members the write dropped (the new list's, then `removeMembers`'), each once. */
  readonly removed: readonly GroupMember[];
}

/** A group a member belongs to, as the User's `groups` attribute shows it. */
export interface MemberGroup {
  /** The group's id. */
  readonly value: string;
  /** The group's `displayName`. */
  readonly display: string;
  /** `direct` when the member is in the group itself, `indirect` through nested groups. */
  readonly type: 'direct' | 'indirect';
}

/** Options of {@link GroupStore.groupsOf}. */
export interface GroupsOfOptions {
  /** Also list the groups reached through nested groups. Default `true`. */
  readonly indirect?: boolean;
}

/** A page query of groups: the users' {@link ListQuery} plus whether to read members. */
export interface GroupListQuery extends ListQuery, GroupReadOptions {}

/** One page of groups and the number of groups matching the query in all. */
export type GroupListResult = StorePage<ScimGroup>;

/** The Group's `TypeStoreShape`: what {@link GroupStore}'s methods take and answer. */
export interface GroupStoreShape {
  /** A group; its `members` are ignored on writes (they are kept apart). */
  readonly resource: ScimGroup;
  /** The new group's members, and the events recorded with the write (see `events`). */
  readonly createArgs: [members: readonly MemberInput[], effects?: MembershipEventEffects];
  /** Whether to read the members. */
  readonly getArgs: [options?: GroupReadOptions];
  /** The expected version, and the member changes of the same atomic step. */
  readonly replaceOptions: GroupReplaceOptions;
  /** The members added and removed, or `null` when there is no such group. */
  readonly replaced: GroupReplaceResult | null;
  /** The groups' page query. */
  readonly query: GroupListQuery;
}

/**
 * Keeps groups and their memberships for scimkit, beside a `UserStore` (as its `groups`): the
 * `TypeStore` contract with the Group's shape, with `members` kept apart
 * ({@link MembershipDeltas}, declared as `capabilities.keptApart: ['members']`), and the
 * reverse lookups the User's `groups` attribute needs.
 *
 * What only groups add to the contract's rules, in the same atomic step as the write:
 * - a member is a user or a group of the same tenant; any other id (another tenant's, a
 *   deleted one, a made-up one) is refused with `scimErrors.invalidValue()` naming the id;
 * - a group never contains itself, directly or through nested groups: such an add is refused
 *   with `scimErrors.invalidValue()`;
 * - deleting a group, or a user (through the `UserStore`'s `delete`), removes every
 *   membership it is part of, and bumps the version of each group it was a member of;
 * - `get` and `list` return members in ascending id order (`members` absent when there are
 *   none), or none at all with `{ members: false }`.
 *
 * The conformance suite (`scimkit/testing`) holds a store to these rules when its `UserStore`
 * has `groups`.
 *
 * @example
 * ```ts
 * const store = new MemoryUserStore();
 * await store.groups.create('tenant-a', group, [{ value: userId, display: 'Ada' }]);
 * await store.groups.addMembers('tenant-a', group.id, [{ value: otherUserId }]);
 * ```
 */
export interface GroupStore extends TypeStore<GroupStoreShape>, MembershipDeltas {
  /**
   * Lists the groups a user or group is a member of, in ascending id order, by index (never a
   * scan of all groups): its direct groups, and unless `options.indirect` is `false` the
   * groups that contain those, transitively.
   */
  groupsOf(
    tenant: string,
    memberId: string,
    options?: GroupsOfOptions,
  ): Promise<readonly MemberGroup[]>;
  /**
   * Lists the groups of several members at once, as {@link GroupStore.groupsOf} lists them for
   * one (same order, same `direct`/`indirect` types, by index), in one read: what a page of
   * users needs. The map has an entry for each given id that is in at least one group; an id
   * in no group, or unknown to the tenant, has none. An empty `memberIds` reads nothing.
   */
  groupsOfMembers(
    tenant: string,
    memberIds: readonly string[],
    options?: GroupsOfOptions,
  ): Promise<ReadonlyMap<string, readonly MemberGroup[]>>;
}
