import type { GroupMember, ScimGroup } from '../schema/group-schema.js';
import type { DeleteOptions, ListQuery, ListSeekResult, StoreCapabilities } from './store-query.js';

/**
 * A member to add: the id of a user or a group of the same tenant, and the display text to
 * record with the membership. The store finds out which of the two the id is.
 */
export interface MemberInput {
  /** The member's id. */
  readonly value: string;
  /** A human-readable name of the member, kept with the membership. */
  readonly display?: string;
}

/** Options of {@link GroupStore.get} and of a group list. */
export interface GroupReadOptions {
  /**
   * Whether to read the members. Default `true`. With `false` the store reads no membership
   * at all (what `excludedAttributes=members` needs), whatever the size of the group.
   */
  readonly members?: boolean;
}

/** Options of {@link GroupStore.replace}. */
export interface GroupReplaceOptions {
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

/** Options of {@link GroupStore.addMembers} and {@link GroupStore.removeMembers}. */
export interface MembershipOptions {
  /** When set, change the group only if its stored `meta.version` is still this one. */
  readonly expectedVersion?: string;
  /** The time to record as `meta.lastModified` (ISO 8601). Default: the store's clock. */
  readonly lastModified?: string;
}

/** Options of {@link GroupStore.members}. */
export interface MemberPageOptions {
  /** Start after this member id (the last of the previous page); omitted: from the first. */
  readonly after?: string;
  /** Largest number of members to return (at least 1). */
  readonly count: number;
}

/** What a membership write did. */
export interface MembershipChange {
  /**
   * The memberships this call created or removed, in the order given; a member that was
   * already there (add) or was not (remove) is not listed. A host emits one event per entry.
   */
  readonly changed: readonly GroupMember[];
  /** The group's `meta.version` after the call (unchanged when `changed` is empty). */
  readonly version: string;
  /** The group's `meta.lastModified` after the call. */
  readonly lastModified: string;
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
export interface GroupListResult {
  /** How many groups match the query in all, across every page. */
  readonly totalResults: number;
  /** The groups of this page, in the query's order. */
  readonly resources: readonly ScimGroup[];
  /** For a query with `seek` only: where the page starts and ends, and whether more follow. */
  readonly seek?: ListSeekResult;
}

/**
 * Keeps groups and their memberships for scimkit, beside a `UserStore` (as its `groups`).
 * Every method is scoped to a tenant and receives validated input. `null` or `false` mean
 * "not found".
 *
 * Members are kept apart from the group, one membership per (group, member), so that adding
 * or removing one member, and reading a group without its members, cost the same for a group
 * of 100,000 members as for a group of 10: no call reads or rewrites the whole member list
 * except a read that asks for it and a `replace` that sends a new one.
 *
 * Integrity rules every store keeps, in the same atomic step as the write:
 * - a member is a user or a group of the same tenant; any other id (another tenant's, a
 *   deleted one, a made-up one) is refused with `scimErrors.invalidValue()` naming the id, and
 *   nothing is written;
 * - a member added twice is one membership; removing a non-member is not an error;
 * - a group never contains itself, directly or through nested groups: such an add is refused
 *   with `scimErrors.invalidValue()`;
 * - deleting a group, or a user (through the `UserStore`'s `delete`), removes every
 *   membership it is part of, and bumps the version of each group it was a member of;
 * - `addMembers`/`removeMembers` that change something bump the group's `meta.version`
 *   (`W/"n"` to `W/"n+1"`) and set `meta.lastModified`; concurrent calls on one group all
 *   land.
 *
 * The store throws on purpose only `scimErrors.invalidValue()` (above) and
 * `scimErrors.versionConflict()` (stale expected version). The conformance suite
 * (`scimkit/testing`) holds a store to these rules when its `UserStore` has `groups`.
 *
 * @example
 * ```ts
 * const store = new MemoryUserStore();
 * await store.groups.create('tenant-a', group, [{ value: userId, display: 'Ada' }]);
 * await store.groups.addMembers('tenant-a', group.id, [{ value: otherUserId }]);
 * ```
 */
export interface GroupStore {
  /** What the store answers itself in {@link GroupStore.list}. */
  readonly capabilities?: StoreCapabilities;
  /**
   * Stores a new group (its `members`, if any, are ignored) with these members. Throws
   * `scimErrors.invalidValue()` for a member that is not in the tenant.
   */
  create(tenant: string, group: ScimGroup, members: readonly MemberInput[]): Promise<void>;
  /**
   * Reads one group, or `null`; with its `members` unless `options.members` is `false`.
   * Members come in ascending id order; `members` is absent when there are none. What it
   * returns must not let the caller change stored state.
   */
  get(tenant: string, id: string, options?: GroupReadOptions): Promise<ScimGroup | null>;
  /**
   * Replaces a group (its attributes and `meta`, from `group`; `group.members` is ignored)
   * whose stored version is `expectedVersion`, and its member list when `options.members` is
   * given, then removes `options.removeMembers` and adds `options.addMembers`: all in one
   * atomic step, or nothing. Returns `null` when there is no such group.
   */
  replace(
    tenant: string,
    group: ScimGroup,
    options: GroupReplaceOptions,
  ): Promise<GroupReplaceResult | null>;
  /** Deletes a group and every membership it is part of; returns `false` when there is none. */
  delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean>;
  /**
   * Returns one page of groups ordered by id (or `sortBy`), and how many match in all; with
   * `query.seek` (when `capabilities.keysetPaging` is true), the keyset page and its
   * `seek` places, as `UserStore.list` does.
   */
  list(tenant: string, query: GroupListQuery): Promise<GroupListResult>;
  /**
   * Adds members to a group, all or none; `null` when there is no such group. Cost does not
   * grow with the size of the group.
   */
  addMembers(
    tenant: string,
    groupId: string,
    members: readonly MemberInput[],
    options?: MembershipOptions,
  ): Promise<MembershipChange | null>;
  /**
   * Removes members (by id) from a group, all in one step; ids that are not members are
   * ignored. `null` when there is no such group.
   */
  removeMembers(
    tenant: string,
    groupId: string,
    memberIds: readonly string[],
    options?: MembershipOptions,
  ): Promise<MembershipChange | null>;
  /**
   * Reads one page of a group's members in ascending id order (the order `get` lists them),
   * after `options.after`: a host walks a group of 100,000 members page by page, never
   * holding the whole list. `null` when there is no such group.
   */
  members(
    tenant: string,
    groupId: string,
    options: MemberPageOptions,
  ): Promise<readonly GroupMember[] | null>;
  /**
   * Reads the first `count` members (in ascending id order, as `members` reads them) of each
   * of several groups, in one read: what a page of groups shown with their members needs, so
   * that a page of small groups costs one read rather than one per group. The map has an entry
   * for each given group that has members; a group without members, or unknown to the tenant,
   * has none. Optional: without it the core calls `members` once per group.
   */
  firstMembers?(
    tenant: string,
    groupIds: readonly string[],
    count: number,
  ): Promise<ReadonlyMap<string, readonly GroupMember[]>>;
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
