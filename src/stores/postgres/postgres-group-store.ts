import type { DirectoryEvent, MembershipEventEffects } from '../../contracts/event-log.js';
import {
  EVENTS_PER_STATEMENT,
  eventStatements,
  eventsParam,
  recordEvents,
  type EventStatements,
} from './event-statements.js';
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
import type { DeleteOptions, StoreCapabilities } from '../../contracts/user-store.js';
import { scimErrors } from '../../errors/index.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { groupResourceType } from '../../schema/group-resource-type.js';
import { foldCase } from '../../schema/fold-case.js';
import type { GroupMember, MemberType, ScimGroup } from '../../schema/group-schema.js';
import { distinctBy, memberCycle, unknownMember } from '../group-errors.js';
import { compileSqlFilter } from './compile-sql-filter.js';
import type { ResourceTable } from './filter-targets.js';
import { groupsTable } from './group-filter.js';
import { groupsPage, groupStatements, type GroupStatements } from './group-statements.js';
import { foldedJson } from './folded-json.js';
import { PostgresTable } from './postgres-table.js';
import type { QueryExecutor } from './query-executor.js';
import { settleWrite, type WriteOutcome } from './settle-write.js';
import type { StoreContext } from './store-context.js';
import { sortKey } from './sort-key.js';
import { compiles } from './unsupported-filter.js';

type Doc = Record<string, unknown>;
interface MemberRow {
  member_id: string;
  member_type: MemberType;
  display: string | null;
}

/** A member's direct group, and whether that group is itself in a group. */
interface DirectRow {
  member_id: string;
  value: string;
  display: string;
  nested: boolean;
}
/** A group above `start`. */
interface AncestorRow {
  start: string;
  value: string;
  display: string;
}

/** The columns a group write sends, in statement order ($3 to $10). */
function groupColumns(group: ScimGroup): unknown[] {
  const { members: _members, ...doc } = group;
  return [
    group.displayName,
    foldCase(group.displayName),
    group.externalId ?? null,
    group.meta.version,
    group.meta.created,
    group.meta.lastModified,
    JSON.stringify(doc),
    foldedJson(doc),
  ];
}

const toMember = (row: MemberRow): GroupMember =>
  row.display === null
    ? { value: row.member_id, type: row.member_type }
    : { value: row.member_id, type: row.member_type, display: row.display };

/** The group document with its members (a JSON array or NULL from the statement). */
function toGroup(doc: Doc, members: unknown): ScimGroup {
  const group = doc as ScimGroup;
  return Array.isArray(members) && members.length > 0
    ? { ...group, members: members as GroupMember[] }
    : group;
}

/**
 * Keeps groups in PostgreSQL for `PostgresUserStore`, as its `groups`: the group row without
 * members, and one row per membership keyed by (tenant, group, member) with an index by
 * member. A one-member change locks the group row, checks and writes only the rows it names,
 * and bumps the version, in one transaction; a read without members touches no membership
 * row; a member's groups come from the member index (a recursive query for nested groups).
 *
 * @internal
 */
export class PostgresGroupStore implements GroupStore {
  /**
   * Every filter and sort the compilers express on the groups table (see `groupsTable`): every
   * operator on every path of the Group schemas (and the host's extensions), `members` by
   * `value`, `display` and `type` through the membership table; not a member's `$ref`, and no
   * sort by `members`. Pages by keyset.
   */
  readonly capabilities: Required<StoreCapabilities> = {
    supportsFilter: (filter: Filter) =>
      compiles(() => compileSqlFilter(filter, 1, this.defaultType, undefined, this.table)),
    supportsSort: (path: AttributePath) =>
      compiles(() => sortKey(path, this.defaultType, this.table)),
    keysetPaging: true,
    keptApart: ['members'],
  };
  private readonly sql: GroupStatements;
  private readonly rows: PostgresTable<ScimGroup>;
  /** Where each group attribute lives, for the filter and sort compilers. */
  private readonly table: ResourceTable;
  /** The resource type paths resolve in when a query carries none. */
  private readonly defaultType = groupResourceType();

  // The event insert of a membership write, which is a transaction of several statements.
  readonly #events: EventStatements;

  constructor(private readonly context: StoreContext) {
    this.#events = eventStatements(context.tables);
    this.sql = groupStatements(context.tables);
    this.table = groupsTable(context.tables);
    const withMembers = groupsPage(context.tables, true);
    const withoutMembers = groupsPage(context.tables, false);
    this.rows = new PostgresTable({
      context,
      table: this.table,
      defaultType: this.defaultType,
      page: (query: GroupListQuery) => (query.members === false ? withoutMembers : withMembers),
      resource: (row) => toGroup(row.doc as Doc, row.members),
      key: (tenant, id) => [tenant, id],
      deletes: { versioned: this.sql.deleteGroup },
      afterDelete: async (tx, tenant, id, options) => {
        await tx.query(this.sql.clearMembers, [tenant, id]);
        await this.forgetMember(tx, tenant, id, options);
      },
    });
  }

  async create(
    tenant: string,
    group: ScimGroup,
    members: readonly MemberInput[],
    effects?: MembershipEventEffects,
  ): Promise<void> {
    const row = [tenant, group.id, ...groupColumns(group)];
    // The group's insert records its events too (members included, known once resolved), as
    // many as one statement takes; the others follow in the transaction.
    const insert = (events: readonly DirectoryEvent[] | undefined): [string, unknown[]] => {
      const param = eventsParam(events?.slice(0, EVENTS_PER_STATEMENT));
      return param === undefined
        ? [this.sql.insert, row]
        : [this.sql.insertWithEvents, [...row, param]];
    };
    // Without members, that one statement is the whole write (one event at most).
    if (members.length === 0) {
      await this.context.query(...insert(effects?.events?.({ added: [], removed: [] })));
      return;
    }
    await this.context.transaction(async (tx) => {
      const resolved = await this.resolve(tx, tenant, group.id, members, false);
      const events = effects?.events?.({ added: resolved, removed: [] });
      await tx.query(...insert(events));
      await recordEvents(tx, this.#events, events, EVENTS_PER_STATEMENT);
      await this.insertMembers(tx, tenant, group.id, resolved);
    });
  }

  async get(tenant: string, id: string, options?: GroupReadOptions): Promise<ScimGroup | null> {
    const text = options?.members === false ? this.sql.get : this.sql.getWithMembers;
    return this.rows.get(text, tenant, id);
  }

  async replace(
    tenant: string,
    group: ScimGroup,
    options: GroupReplaceOptions,
  ): Promise<GroupReplaceResult | null> {
    return this.context.transaction(async (tx) => {
      const locked = await tx.query<{ version: string }>(this.sql.lock, [tenant, group.id]);
      if (!locked[0]) return null;
      if (locked[0].version !== options.expectedVersion) throw scimErrors.versionConflict();
      const added: GroupMember[] = [];
      const removed: GroupMember[] = [];
      if (options.members) {
        const next = await this.resolve(tx, tenant, group.id, options.members, true);
        const current = (await tx.query<MemberRow>(this.sql.memberIds, [tenant, group.id])).map(
          toMember,
        );
        const before = new Set(current.map((m) => m.value));
        const keep = new Set(next.map((m) => m.value));
        removed.push(
          ...current.filter((m) => !keep.has(m.value)).sort((a, b) => (a.value < b.value ? -1 : 1)),
        );
        added.push(...next.filter((m) => !before.has(m.value)));
        if (removed.length > 0)
          await tx.query(this.sql.removeMembers, [tenant, group.id, removed.map((m) => m.value)]);
        await this.insertMembers(tx, tenant, group.id, added);
      }
      const ids = distinctBy(options.removeMembers ?? [], (id) => id);
      if (ids.length > 0) {
        const rows = await tx.query<MemberRow>(this.sql.removeMembers, [tenant, group.id, ids]);
        const byId = new Map(rows.map((row) => [row.member_id, toMember(row)]));
        for (const id of ids) {
          const member = byId.get(id);
          if (member) removed.push(member);
        }
      }
      if (options.addMembers && options.addMembers.length > 0) {
        const more = await this.resolve(tx, tenant, group.id, options.addMembers, true);
        const inserted = new Set(await this.insertMembers(tx, tenant, group.id, more));
        added.push(...more.filter((m) => inserted.has(m.value)));
      }
      const rows = await tx.query<WriteOutcome>(this.sql.replace, [
        tenant,
        group.id,
        ...groupColumns(group),
        options.expectedVersion,
      ]);
      settleWrite(rows[0]);
      await recordEvents(tx, this.#events, options.events?.({ added, removed }));
      return { added, removed };
    });
  }

  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    return this.rows.delete(tenant, id, options);
  }

  async list(tenant: string, query: GroupListQuery): Promise<GroupListResult> {
    return this.rows.list(tenant, query);
  }

  async addMembers(
    tenant: string,
    groupId: string,
    members: readonly MemberInput[],
    options?: MembershipOptions,
  ): Promise<MembershipChange | null> {
    return this.context.transaction(async (tx) => {
      const locked = await this.lock(tx, tenant, groupId, options);
      if (!locked) return null;
      const resolved = await this.resolve(tx, tenant, groupId, members, true);
      const inserted = new Set(await this.insertMembers(tx, tenant, groupId, resolved));
      const added = resolved.filter((m) => inserted.has(m.value));
      await recordEvents(tx, this.#events, options?.events?.({ added, removed: [] }));
      return this.settle(tx, tenant, groupId, locked, added, options);
    });
  }

  async removeMembers(
    tenant: string,
    groupId: string,
    memberIds: readonly string[],
    options?: MembershipOptions,
  ): Promise<MembershipChange | null> {
    return this.context.transaction(async (tx) => {
      const locked = await this.lock(tx, tenant, groupId, options);
      if (!locked) return null;
      const ids = distinctBy(memberIds, (id) => id);
      const rows =
        ids.length === 0
          ? []
          : await tx.query<MemberRow>(this.sql.removeMembers, [tenant, groupId, ids]);
      const byId = new Map(rows.map((row) => [row.member_id, toMember(row)]));
      const removed = ids.flatMap((id) => byId.get(id) ?? []);
      await recordEvents(tx, this.#events, options?.events?.({ added: [], removed }));
      return this.settle(tx, tenant, groupId, locked, removed, options);
    });
  }

  async members(
    tenant: string,
    groupId: string,
    options: MemberPageOptions,
  ): Promise<readonly GroupMember[] | null> {
    const rows = await this.context.query<MemberRow>(this.sql.memberPage, [
      tenant,
      groupId,
      options.after ?? null,
      Math.max(1, options.count),
    ]);
    if (rows.length > 0) return rows.map(toMember);
    // An empty page: the group's end, or no group at all.
    const group = await this.context.query<{ doc: Doc }>(this.sql.get, [tenant, groupId]);
    return group[0] ? [] : null;
  }

  async firstMembers(
    tenant: string,
    groupIds: readonly string[],
    count: number,
  ): Promise<ReadonlyMap<string, readonly GroupMember[]>> {
    const found = new Map<string, GroupMember[]>();
    if (groupIds.length === 0) return found;
    const rows = await this.context.query<MemberRow & { group_id: string }>(this.sql.firstMembers, [
      tenant,
      [...new Set(groupIds)],
      Math.max(1, count),
    ]);
    for (const row of rows) {
      const list = found.get(row.group_id);
      if (list) list.push(toMember(row));
      else found.set(row.group_id, [toMember(row)]);
    }
    return found;
  }

  async groupsOf(
    tenant: string,
    memberId: string,
    options?: GroupsOfOptions,
  ): Promise<readonly MemberGroup[]> {
    const text = options?.indirect === false ? this.sql.directGroups : this.sql.allGroups;
    return this.context.query<MemberGroup>(text, [tenant, memberId]);
  }

  async groupsOfMembers(
    tenant: string,
    memberIds: readonly string[],
    options?: GroupsOfOptions,
  ): Promise<ReadonlyMap<string, readonly MemberGroup[]>> {
    const found = new Map<string, MemberGroup[]>();
    if (memberIds.length === 0) return found;
    // Direct groups first, then what is above only those that are nested: one plain indexed
    // read when no group is nested. A single recursive statement over a page of members is
    // estimated so costly that a server with JIT on compiles it (~80 ms) on every read.
    const direct = await this.context.query<DirectRow>(this.sql.directGroupsOfMany, [
      tenant,
      [...new Set(memberIds)],
    ]);
    const nested = [...new Set(direct.filter((row) => row.nested).map((row) => row.value))];
    const above = new Map<string, AncestorRow[]>();
    if (options?.indirect !== false && nested.length > 0) {
      const rows = await this.context.query<AncestorRow>(this.sql.ancestorsOfMany, [
        tenant,
        nested,
      ]);
      for (const row of rows) {
        const list = above.get(row.start);
        if (list) list.push(row);
        else above.set(row.start, [row]);
      }
    }
    for (const row of direct) {
      const list = found.get(row.member_id) ?? [];
      found.set(row.member_id, list);
      list.push({ value: row.value, display: row.display, type: 'direct' });
    }
    if (above.size === 0) return found;
    for (const [member, list] of found) {
      const seen = new Set(list.map((g) => g.value));
      for (const group of list.slice()) {
        for (const { value, display } of above.get(group.value) ?? []) {
          if (seen.has(value) || value === member) continue;
          seen.add(value);
          list.push({ value, display, type: 'indirect' });
        }
      }
      list.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    }
    return found;
  }

  /**
   * Removes a deleted user or group from every group it was in and bumps each of those, in
   * the caller's transaction (the user store's delete runs it after deleting the user row, so
   * a membership added meanwhile is seen and removed too), then records the events
   * `options.membershipEvents` lists for the groups the statement found, in that transaction.
   */
  async forgetMember(
    tx: QueryExecutor,
    tenant: string,
    memberId: string,
    options: DeleteOptions | undefined,
  ): Promise<void> {
    const left = await tx.query<{ id: string }>(
      this.sql.forgetMember,
      [tenant, memberId, new Date().toISOString()],
      { prepare: true },
    );
    if (left.length === 0 || !options?.membershipEvents) return;
    // The ids are "C"-collated text: the code-unit order JavaScript sorts in.
    const ids = left.map((row) => row.id).sort();
    await recordEvents(tx, this.#events, options.membershipEvents(ids));
  }

  /** Locks the group row and checks the expected version; `undefined` when there is none. */
  private async lock(
    tx: QueryExecutor,
    tenant: string,
    groupId: string,
    options: MembershipOptions | undefined,
  ): Promise<{ version: string; last_modified: string } | undefined> {
    const rows = await tx.query<{ version: string; last_modified: string }>(
      this.sql.lock,
      [tenant, groupId],
      { prepare: true },
    );
    const row = rows[0];
    const expected = options?.expectedVersion;
    if (row && expected !== undefined && row.version !== expected)
      throw scimErrors.versionConflict();
    return row;
  }

  /** Bumps the version when something changed, and reports the change. */
  private async settle(
    tx: QueryExecutor,
    tenant: string,
    groupId: string,
    locked: { version: string; last_modified: string },
    changed: GroupMember[],
    options: MembershipOptions | undefined,
  ): Promise<MembershipChange> {
    if (changed.length === 0)
      return { changed, version: locked.version, lastModified: locked.last_modified };
    const lastModified = options?.lastModified ?? new Date().toISOString();
    const rows = await tx.query<{ version: string }>(
      this.sql.bump,
      [tenant, groupId, lastModified],
      { prepare: true },
    );
    return { changed, version: (rows[0] as { version: string }).version, lastModified };
  }

  /** Inserts memberships that are not there yet; returns the ids it inserted. */
  private async insertMembers(
    tx: QueryExecutor,
    tenant: string,
    groupId: string,
    members: readonly GroupMember[],
  ): Promise<string[]> {
    if (members.length === 0) return [];
    const rows = await tx.query<{ member_id: string }>(
      this.sql.addMembers,
      [
        tenant,
        groupId,
        members.map((m) => m.value),
        members.map((m) => m.type),
        members.map((m) => m.display ?? null),
        members.map((m) => (m.display === undefined ? null : foldCase(m.display))),
      ],
      { prepare: true },
    );
    return rows.map((row) => row.member_id);
  }

  /**
   * Types each member id by where it lives in the tenant, locking those rows against a
   * concurrent delete; throws for an unknown id or, when `checkCycle`, for a group that would
   * contain itself (checked under a per-tenant lock, so two crossing adds cannot both pass).
   */
  private async resolve(
    tx: QueryExecutor,
    tenant: string,
    groupId: string,
    members: readonly MemberInput[],
    checkCycle: boolean,
  ): Promise<GroupMember[]> {
    const inputs = distinctBy(members, (m) => m.value);
    if (inputs.length === 0) return [];
    const ids = inputs.map((m) => m.value);
    const prepare = { prepare: true };
    const users = await tx.query<{ id: string }>(this.sql.usersAmong, [tenant, ids], prepare);
    const groups = await tx.query<{ id: string }>(this.sql.groupsAmong, [tenant, ids], prepare);
    const userIds = new Set(users.map((r) => r.id));
    const groupIds = new Set(groups.map((r) => r.id));
    const resolved = inputs.map((input): GroupMember => {
      const type = userIds.has(input.value) ? 'User' : groupIds.has(input.value) ? 'Group' : null;
      if (type === null) throw unknownMember(input.value);
      return input.display === undefined
        ? { value: input.value, type }
        : { value: input.value, type, display: input.display };
    });
    if (checkCycle && groupIds.size > 0) {
      await tx.query(this.sql.lockNesting, [tenant]);
      const cycle = await tx.query<{ id: string }>(this.sql.cycleAmong, [
        tenant,
        groupId,
        [...groupIds],
      ]);
      if (cycle[0]) throw memberCycle(cycle[0].id);
    }
    return resolved;
  }
}
