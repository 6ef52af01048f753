import type {
  GroupListQuery,
  GroupListResult,
  GroupReadOptions,
  GroupReplaceOptions,
  GroupReplaceResult,
  GroupStore,
  GroupsOfOptions,
  MemberGroup,
  MemberInput,
  MemberPageOptions,
  MembershipChange,
  MembershipOptions,
} from '../../contracts/group-store.js';
import type { MembershipEventEffects } from '../../contracts/event-log.js';
import type { DeleteOptions, StoreCapabilities } from '../../contracts/user-store.js';
import { nextVersion } from '../../schema/version.js';
import type { Filter } from '../../filter/ast.js';
import { compileFilter } from '../../filter/index.js';
import { WORK_COSTS, type WorkMeter } from '../../filter/work-meter.js';
import type { GroupMember, ScimGroup } from '../../schema/group-schema.js';
import { groupResourceType } from '../../schema/group-resource-type.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { distinctBy, memberCycle, unknownMember } from '../group-errors.js';
import { frozenCopy, frozenNextVersion } from './clone-json.js';
import type { MemoryEventLog } from './memory-event-log.js';
import {
  isMembersPath,
  memberEquality,
  mentionsMembers,
  readsMemberRef,
} from './group-filter-plan.js';
import { scanTable } from './scan-table.js';
import { TenantGroups } from './tenant-groups.js';
import { MemoryTable } from './tenant-table.js';

/** Tells whether `id` is a user of `tenant`; the user store's index answers it. */
export type IsUser = (tenant: string, id: string) => boolean;

/** The resource type filters resolve in when a query carries none. */
const DEFAULT_TYPE: CompiledResourceType = groupResourceType();

/**
 * Keeps groups in memory for `MemoryUserStore`, as its `groups`: groups indexed per tenant by
 * id, memberships indexed both ways (group → members, member → groups), so that one-member
 * changes, reads without members and a member's groups cost the same whatever the size of a
 * group. Every write checks, then changes every index, in one synchronous step.
 *
 * @internal
 */
export class MemoryGroupStore implements GroupStore {
  readonly #groups: MemoryTable<ScimGroup, TenantGroups>;

  /**
   * Every filter (the filter engine over the groups) but one on a member's `$ref`, every sort
   * but by `members`, and keyset pages.
   */
  readonly capabilities: StoreCapabilities = {
    supportsFilter: (filter) => !readsMemberRef(filter),
    // Members are kept apart from the group: there is no first or primary one to order by.
    supportsSort: (path) => !isMembersPath(path),
    keysetPaging: true,
    keptApart: ['members'],
  };

  /**
   * @param isUser - Tells whether an id is a user of the tenant (a member may be one).
   * @param maxFilterWork - The work budget of one list request's filter and sort (see
   *   `MemoryUserStoreOptions.maxFilterWork`).
   * @param log - The user store's event log, which the group writes record in.
   */
  constructor(
    private readonly isUser: IsUser,
    maxFilterWork: number,
    /** The user store's event log, which the group writes record in; none without a log. */
    private readonly log: MemoryEventLog | undefined,
  ) {
    this.#groups = new MemoryTable(() => new TenantGroups(), maxFilterWork);
  }

  async create(
    tenant: string,
    group: ScimGroup,
    members: readonly MemberInput[],
    effects?: MembershipEventEffects,
  ): Promise<void> {
    const groups = this.#groups.for(tenant);
    if (groups.byId.has(group.id) || this.isUser(tenant, group.id))
      throw new Error(`MemoryGroupStore: id "${group.id}" already exists.`);
    const resolved = this.#resolve(tenant, groups, group.id, members);
    const stored = storedForm(group);
    groups.add(stored);
    for (const member of resolved) groups.link(group.id, member);
    if (effects?.events)
      this.log?.record(effects.events({ added: resolved, removed: [] }), group, stored);
  }

  async get(tenant: string, id: string, options?: GroupReadOptions): Promise<ScimGroup | null> {
    const found = this.#groups.find(tenant, id);
    if (!found) return null;
    const [groups, group] = found;
    return options?.members === false ? group : withMembers(groups, group);
  }

  async replace(
    tenant: string,
    group: ScimGroup,
    options: GroupReplaceOptions,
  ): Promise<GroupReplaceResult | null> {
    const found = this.#groups.find(tenant, group.id, options.expectedVersion);
    if (!found) return null;
    const [groups] = found;
    // Every check first (each may throw), then the changes: all or nothing.
    const next = options.members && this.#resolve(tenant, groups, group.id, options.members);
    const more = options.addMembers && this.#resolve(tenant, groups, group.id, options.addMembers);
    const added: GroupMember[] = [];
    const removed: GroupMember[] = [];
    if (next) {
      const keep = new Set(next.map((m) => m.value));
      removed.push(...groups.sortedMembers(group.id).filter((m) => !keep.has(m.value)));
      added.push(...next.filter((m) => !groups.has(group.id, m.value)));
      for (const member of removed) groups.unlink(group.id, member.value);
      for (const member of added) groups.link(group.id, member);
    }
    for (const id of distinctBy(options.removeMembers ?? [], (m) => m)) {
      const member = groups.unlink(group.id, id);
      if (member) removed.push(member);
    }
    for (const member of more ?? []) {
      if (groups.has(group.id, member.value)) continue;
      groups.link(group.id, member);
      added.push(member);
    }
    const stored = storedForm(group);
    groups.byId.set(group.id, stored);
    if (options.events) this.log?.record(options.events({ added, removed }), group, stored);
    return { added, removed };
  }

  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    if (!this.#groups.delete(tenant, id, options?.expectedVersion)) return false;
    const left = this.forgetMember(tenant, id);
    this.log?.record(options?.events);
    // Called with no log too: the service tells its listeners what the delete removed.
    const removals = options?.membershipEvents?.(left);
    this.log?.record(removals);
    return true;
  }

  async list(tenant: string, query: GroupListQuery): Promise<GroupListResult> {
    const type = query.resourceType ?? DEFAULT_TYPE;
    const page = this.#groups.list(
      tenant,
      query,
      type,
      (groups) => (filter, meter) => matching(groups, filter, type, meter),
    );
    const groups = this.#groups.of(tenant);
    if (query.members === false || !groups) return page;
    return { ...page, resources: page.resources.map((g) => withMembers(groups, g)) };
  }

  async addMembers(
    tenant: string,
    groupId: string,
    members: readonly MemberInput[],
    options?: MembershipOptions,
  ): Promise<MembershipChange | null> {
    const found = this.#writable(tenant, groupId, options);
    if (!found) return null;
    const [groups, stored] = found;
    const resolved = this.#resolve(tenant, groups, groupId, members);
    const added = resolved.filter((m) => !groups.has(groupId, m.value));
    for (const member of added) groups.link(groupId, member);
    if (options?.events) this.log?.record(options.events({ added, removed: [] }));
    return this.#settle(groups, stored, added, options);
  }

  async removeMembers(
    tenant: string,
    groupId: string,
    memberIds: readonly string[],
    options?: MembershipOptions,
  ): Promise<MembershipChange | null> {
    const found = this.#writable(tenant, groupId, options);
    if (!found) return null;
    const [groups, stored] = found;
    const removed: GroupMember[] = [];
    for (const id of distinctBy(memberIds, (m) => m)) {
      const member = groups.unlink(groupId, id);
      if (member) removed.push(member);
    }
    if (options?.events) this.log?.record(options.events({ added: [], removed }));
    return this.#settle(groups, stored, removed, options);
  }

  async members(
    tenant: string,
    groupId: string,
    options: MemberPageOptions,
  ): Promise<readonly GroupMember[] | null> {
    const groups = this.#groups.of(tenant);
    if (!groups?.byId.has(groupId)) return null;
    const all = groups.sortedMembers(groupId);
    const { after } = options;
    // The first member after `after`, by binary search in the sorted list.
    let low = 0;
    let high = all.length;
    while (after !== undefined && low < high) {
      const mid = (low + high) >>> 1;
      if ((all[mid] as GroupMember).value <= after) low = mid + 1;
      else high = mid;
    }
    return all.slice(low, low + Math.max(1, options.count));
  }

  async firstMembers(
    tenant: string,
    groupIds: readonly string[],
    count: number,
  ): Promise<ReadonlyMap<string, readonly GroupMember[]>> {
    const found = new Map<string, readonly GroupMember[]>();
    const groups = this.#groups.of(tenant);
    if (!groups) return found;
    for (const id of groupIds) {
      if (!groups.membersOf.has(id)) continue;
      found.set(id, groups.sortedMembers(id).slice(0, Math.max(1, count)));
    }
    return found;
  }

  async groupsOf(
    tenant: string,
    memberId: string,
    options?: GroupsOfOptions,
  ): Promise<readonly MemberGroup[]> {
    return this.groupsOfNow(tenant, memberId, options?.indirect !== false);
  }

  async groupsOfMembers(
    tenant: string,
    memberIds: readonly string[],
    options?: GroupsOfOptions,
  ): Promise<ReadonlyMap<string, readonly MemberGroup[]>> {
    const found = new Map<string, readonly MemberGroup[]>();
    const indirect = options?.indirect !== false;
    for (const id of memberIds) {
      const groups = this.groupsOfNow(tenant, id, indirect);
      if (groups.length > 0) found.set(id, groups);
    }
    return found;
  }

  /**
   * Lists a member's groups as `groupsOf` does, synchronously, from the indexes: the user
   * store evaluates `groups` filters with it.
   */
  groupsOfNow(tenant: string, memberId: string, indirect: boolean): MemberGroup[] {
    const groups = this.#groups.of(tenant);
    const direct = groups?.groupsOf.get(memberId);
    if (!groups || !direct) return [];
    const ids = indirect ? groups.ancestors(memberId) : direct;
    const found: MemberGroup[] = [];
    for (const id of [...ids].sort()) {
      if (id === memberId && !direct.has(id)) continue;
      const group = groups.byId.get(id) as ScimGroup;
      found.push({
        value: id,
        display: group.displayName,
        type: direct.has(id) ? 'direct' : 'indirect',
      });
    }
    return found;
  }

  /**
   * Returns the ids of every member of a group, directly or through nested groups (users and
   * groups alike), from the member index; empty for an unknown group.
   */
  membersUnder(tenant: string, groupId: string): Set<string> {
    return this.#groups.of(tenant)?.descendants(groupId) ?? new Set();
  }

  /**
   * Removes every membership of a deleted user or group as a member, bumps the version of
   * each group it was in, and returns those groups' ids in ascending order. Called by the user
   * store's `delete`, in the same synchronous step.
   */
  forgetMember(tenant: string, memberId: string): string[] {
    const groups = this.#groups.of(tenant);
    const parents = groups?.groupsOf.get(memberId);
    if (!groups || !parents) return [];
    const now = new Date().toISOString();
    const left = [...parents].sort();
    for (const parent of left) {
      groups.unlink(parent, memberId);
      const stored = groups.byId.get(parent) as ScimGroup;
      groups.byId.set(parent, bumped(stored, now));
    }
    return left;
  }

  /**
   * Finds a group for a membership change and checks the expected version; `undefined` when
   * the tenant has no such group.
   */
  #writable(
    tenant: string,
    groupId: string,
    options: MembershipOptions | undefined,
  ): [TenantGroups, ScimGroup] | undefined {
    return this.#groups.find(tenant, groupId, options?.expectedVersion);
  }

  /** Bumps the group's version when something changed, and reports the change. */
  #settle(
    groups: TenantGroups,
    stored: ScimGroup,
    changed: GroupMember[],
    options: MembershipOptions | undefined,
  ): MembershipChange {
    let group = stored;
    if (changed.length > 0) {
      group = bumped(stored, options?.lastModified ?? new Date().toISOString());
      groups.byId.set(group.id, group);
    }
    return { changed, version: group.meta.version, lastModified: group.meta.lastModified };
  }

  /**
   * Turns member inputs into memberships: each id once, typed by where it lives in the
   * tenant. Throws (changing nothing) for an unknown id or a group that would contain itself.
   */
  #resolve(
    tenant: string,
    groups: TenantGroups,
    groupId: string,
    members: readonly MemberInput[],
  ): GroupMember[] {
    let ancestors: Set<string> | undefined;
    return distinctBy(members, (m) => m.value).map((input) => {
      const { value, display } = input;
      let type: GroupMember['type'];
      if (this.isUser(tenant, value)) type = 'User';
      else if (groups.byId.has(value)) {
        type = 'Group';
        ancestors ??= groups.ancestors(groupId);
        if (value === groupId || ancestors.has(value)) throw memberCycle(value);
      } else throw unknownMember(value);
      return Object.freeze(display === undefined ? { value, type } : { value, type, display });
    });
  }
}

/** The stored form of a group: a deep frozen copy without `members` (kept in the indexes). */
function storedForm(group: ScimGroup): ScimGroup {
  const { members: _members, ...rest } = group;
  return frozenCopy(rest as ScimGroup);
}

function bumped(stored: ScimGroup, lastModified: string): ScimGroup {
  const meta = { ...stored.meta, version: nextVersion(stored.meta.version), lastModified };
  return frozenNextVersion({ ...stored, meta }, stored);
}

/** The group with its members, frozen; `members` is left out when there are none. */
function withMembers(groups: TenantGroups, group: ScimGroup): ScimGroup {
  const members = groups.sortedMembers(group.id);
  if (members.length === 0) return group;
  return Object.freeze({ ...group, members: members as GroupMember[] });
}

/**
 * The groups matching `filter` in id order, from the member index when the filter is a member
 * lookup; each group tested, and each member a filter on `members` reads, is charged to `meter`.
 */
function matching(
  groups: TenantGroups,
  filter: Filter,
  type: CompiledResourceType,
  meter: WorkMeter,
): ScimGroup[] {
  const member = memberEquality(filter);
  if (member !== undefined) {
    const ids = [...(groups.groupsOf.get(member) ?? [])].sort();
    return ids.map((id) => groups.byId.get(id) as ScimGroup);
  }
  const test = compileFilter(filter, type, meter);
  if (!mentionsMembers(filter)) return scanTable(groups, test, meter);
  return scanTable(
    groups,
    (group) => {
      meter.spend(WORK_COSTS.visit * (groups.membersOf.get(group.id)?.size ?? 0));
      return test(withMembers(groups, group));
    },
    meter,
  );
}
