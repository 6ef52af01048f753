import type { GroupStore, MemberInput } from '../../contracts/group-store.js';
import type { ListQuery } from '../../contracts/store-query.js';
import { isScimError, scimErrors } from '../../errors/index.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { previewJson } from '../../json/preview-json.js';
import { DeltaPlan } from '../../patch/delta-plan.js';
import type { PatchContext } from '../../patch/patch-context.js';
import { planPatch, planPatchWithValues, type PatchPlan } from '../../patch/plan-patch.js';
import { checkImmutable } from '../../schema/check-immutable.js';
import { checkKeyText } from '../../schema/check-key-text.js';
import type { ScimGroup } from '../../schema/group-schema.js';
import type { Projection } from '../../schema/project-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { AttributeDefinition } from '../../schema/types.js';
import type { ResourceInput } from '../../schema/validate-resource-input.js';
import type { EventHub } from '../events/event-hub.js';
import type { ProfileNeutralService } from '../handlers/service-in-context.js';
import { assertStoreFilters, assertStoreSorts } from '../resources/store-support.js';
import { assertIfMatch } from '../http/etag.js';
import type { ResourcePage } from '../handlers/resource-endpoint.js';
import { newId } from '../resources/new-id.js';
import { WriteLoop, type WriteTarget } from '../resources/write-loop.js';
import { groupEvents } from './group-events.js';
import type { GroupWritten, PlannedGroupWrite } from './group-write.js';
import { assembleGroup, firstGroupMeta, nextGroupMeta } from './stored-group.js';

/** The group attributes a store keys on (see `checkKeyText`). */
const GROUP_KEYS = ['displayName', 'externalId'];

/** The 404 of a group that is not there. */
export function groupNotFound(id: string) {
  return scimErrors.notFound(`Group ${previewJson(id)} not found.`);
}

/**
 * The group operations behind `/Groups` and the host API: every write goes through the one
 * `WriteLoop` (per-id lock, If-Match, 404, retries), and membership changes reach the store
 * as deltas, so adding or removing one member costs the same for a group of 100,000 members
 * as for a group of 10. Reads that do not show `members` ask the store for none.
 *
 * A service is built once per `createScim` and serves every compatibility profile: a PATCH
 * names the context (dialect rules, rule trace) it is read in, so every profile's writes to a
 * group queue on the same lock (see `serviceInContext`).
 */
export class GroupService implements ProfileNeutralService<ScimGroup> {
  readonly #loop: WriteLoop<ScimGroup, PlannedGroupWrite, GroupWritten>;

  constructor(
    private readonly store: GroupStore,
    private readonly events: EventHub,
    private readonly clock: () => Date,
    private readonly type: CompiledResourceType,
  ) {
    const target: WriteTarget<ScimGroup, PlannedGroupWrite, GroupWritten> = {
      notFound: groupNotFound,
      read: (tenant, id) => store.get(tenant, id, { members: false }),
      write: (tenant, current, planned, ifMatch) => this.#write(tenant, current, planned, ifMatch),
      remove: (tenant, id, options) => store.delete(tenant, id, options),
      committed: (tenant, at, id, before, done) => this.#emit(tenant, at, id, before, done),
    };
    this.#loop = new WriteLoop(target, clock);
  }

  /**
   * Creates a group with its members; 400 `invalidValue` for a member not in the tenant.
   * Returns it as `get` does, without members.
   */
  async create(tenant: string, input: ResourceInput): Promise<ScimGroup> {
    const date = this.clock();
    const now = date.toISOString();
    const { members, ...attributes } = input.attributes;
    checkKeyText(attributes, GROUP_KEYS);
    const group = assembleGroup(newId(date.getTime()), attributes, firstGroupMeta(now), this.type);
    await this.store.create(tenant, group, memberInputs(members));
    // The members read back only for the events; the answer reads them within its budget.
    const stored =
      (await this.store.get(tenant, group.id, { members: this.events.active })) ?? group;
    if (this.events.active) {
      this.events.emit({ type: 'group.created', tenant, at: now, group });
      for (const member of stored.members ?? []) {
        this.events.emit({
          type: 'group.member_added',
          tenant,
          at: now,
          groupId: group.id,
          member,
        });
      }
    }
    const { members: _members, ...answer } = stored;
    return answer as ScimGroup;
  }

  /**
   * Reads a group or throws 404, without its members: a response that shows them reads them
   * page by page, within its byte budget (see `readMembers`).
   */
  async get(tenant: string, id: string, _shown: Projection = {}): Promise<ScimGroup> {
    const group = await this.store.get(tenant, id, { members: false });
    if (!group) throw groupNotFound(id);
    return group;
  }

  /** Lists groups without their members, as `get` reads each. */
  list(
    tenant: string,
    query: ListQuery,
    _shown: Projection = {},
  ): Promise<ResourcePage<ScimGroup>> {
    return this.store.list(tenant, { ...query, members: false });
  }

  assertFilterSupported(filter: Filter, text: string): void {
    assertStoreFilters(this.store.capabilities, filter, text);
  }

  assertSortSupported(path: AttributePath, text: string): void {
    assertStoreSorts(this.store.capabilities, path, text, 'groups');
  }

  /** PUT: the attributes and the whole member list are replaced (omitted members: none). */
  async replace(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    input: ResourceInput,
  ): Promise<ScimGroup> {
    const { members, ...attributes } = input.attributes;
    const list = memberInputs(members);
    await this.#loop.write(tenant, id, ifMatch, async (current, now) => {
      const plan = new DeltaPlan();
      plan.replace(list);
      const kept = checkImmutable(current, attributes, this.type);
      checkKeyText(kept, GROUP_KEYS, current);
      const group = assembleGroup(id, kept, nextGroupMeta(current.meta, now), this.type);
      return { group, members: plan, at: now };
    });
    return this.get(tenant, id);
  }

  /**
   * PATCH, read in `ctx` (the dialect rules of the caller's profile): attribute changes and
   * membership deltas in one store step (see `planPatch`). Returns the group as `shown`
   * shows it, or without members when `shown` is undefined (the response has no body).
   */
  async patch(
    ctx: PatchContext,
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    body: unknown,
    shown?: Projection,
  ): Promise<ScimGroup> {
    let needsList = false;
    const { current, done } = await this.#loop.write(tenant, id, ifMatch, async (group, now) => {
      const plan = planPatch(ctx, group, body, membersOf(ctx));
      if (!plan) {
        needsList = true;
        return null;
      }
      return this.#planned(group, plan, now);
    });
    if (needsList) return this.#patchWithList(ctx, tenant, id, ifMatch, body, shown);
    const after = done?.group ?? current;
    return shown === undefined ? after : this.get(tenant, id, shown);
  }

  /** DELETE: the group and every membership it is part of. */
  delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    return this.#loop.delete(tenant, id, ifMatch);
  }

  /** Adds members (the host API); 400 for an id not in the tenant. Returns what changed. */
  async addMembers(tenant: string, id: string, members: readonly MemberInput[]) {
    return (await this.#changeMembers(tenant, id, (plan) => plan.add(members)))?.added ?? [];
  }

  /** Removes members by id (the host API). Returns what changed. */
  async removeMembers(tenant: string, id: string, memberIds: readonly string[]) {
    return (await this.#changeMembers(tenant, id, (plan) => plan.remove(memberIds)))?.removed ?? [];
  }

  // A membership-only write of the host API, through the one write loop (404, events).
  async #changeMembers(tenant: string, id: string, change: (plan: DeltaPlan) => void) {
    const plan = new DeltaPlan();
    change(plan);
    const written = await this.#loop.write(tenant, id, undefined, async (_group, now) => ({
      group: null,
      members: plan,
      at: now,
    }));
    return written.done;
  }

  #planned(current: ScimGroup, plan: PatchPlan, now: string): PlannedGroupWrite | null {
    if (plan.attributes !== null) checkKeyText(plan.attributes, GROUP_KEYS, current);
    const group =
      plan.attributes === null
        ? null
        : assembleGroup(current.id, plan.attributes, nextGroupMeta(current.meta, now), this.type);
    if (group === null && !plan.values.touched) return null;
    return { group, members: plan.values, at: now };
  }

  // The PATCHes whose membership operations need the list (a filter on `display`, say): the
  // message is applied to the group read with its members, and the write is conditional on
  // the version read; without If-Match, a write that lost a race is planned again.
  async #patchWithList(
    ctx: PatchContext,
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    body: unknown,
    shown: Projection | undefined,
  ): Promise<ScimGroup> {
    for (let attempt = 1; ; attempt++) {
      const full = await this.store.get(tenant, id);
      if (!full) throw groupNotFound(id);
      assertIfMatch(ifMatch, full.meta.version);
      const plan = planPatchWithValues(ctx, full, body, membersOf(ctx));
      try {
        const { current, done } = await this.#loop.write(
          tenant,
          id,
          full.meta.version,
          async (group, now) => this.#planned(group, plan, now),
        );
        const after = done?.group ?? current;
        return shown === undefined ? after : await this.get(tenant, id, shown);
      } catch (error) {
        const conflict = isScimError(error) && error.status === 412;
        if (!conflict || ifMatch !== undefined || attempt >= 16) throw error;
      }
    }
  }

  // One store step: a membership-only delta of one kind, without If-Match, needs no version
  // (the store applies it atomically, whoever else writes); anything else is one `replace`
  // under the version read.
  async #write(
    tenant: string,
    current: ScimGroup,
    planned: PlannedGroupWrite,
    ifMatch: string | undefined,
  ): Promise<GroupWritten | null> {
    const { members, at } = planned;
    const list = members.list;
    const adds = members.additions;
    const removes = members.removals;
    if (
      planned.group === null &&
      list === undefined &&
      (adds.length === 0) !== (removes.length === 0)
    ) {
      const options =
        ifMatch === undefined
          ? { lastModified: at }
          : { lastModified: at, expectedVersion: current.meta.version };
      const change =
        adds.length > 0
          ? await this.store.addMembers(tenant, current.id, adds, options)
          : await this.store.removeMembers(tenant, current.id, removes, options);
      if (!change) return null;
      const group =
        change.changed.length === 0
          ? current
          : assembleGroup(
              current.id,
              current,
              { ...current.meta, version: change.version, lastModified: change.lastModified },
              this.type,
            );
      return {
        group,
        renamed: false,
        added: adds.length > 0 ? change.changed : [],
        removed: adds.length > 0 ? [] : change.changed,
      };
    }
    const group =
      planned.group ??
      assembleGroup(current.id, current, nextGroupMeta(current.meta, at), this.type);
    const result = await this.store.replace(tenant, group, {
      expectedVersion: current.meta.version,
      ...(list === undefined ? {} : { members: list }),
      ...(removes.length > 0 ? { removeMembers: removes } : {}),
      ...(adds.length > 0 ? { addMembers: adds } : {}),
    });
    if (!result) return null;
    return { group, renamed: planned.group !== null, ...result };
  }

  #emit(
    tenant: string,
    at: string,
    id: string,
    before: ScimGroup | null,
    done: GroupWritten | null,
  ) {
    if (!this.events.active) return;
    for (const event of groupEvents(tenant, at, id, before, done)) this.events.emit(event);
  }
}

// The attribute the store keeps apart, in the resource type a PATCH is read in (each
// compatibility profile compiles its own).
function membersOf(ctx: PatchContext): AttributeDefinition {
  const members = ctx.index.attribute(ctx.index.core, 'members');
  if (!members) throw new Error('The Group resource type has no "members" attribute.');
  return members;
}

// The members of a validated POST or PUT body, as the store takes them.
function memberInputs(members: unknown): MemberInput[] {
  if (!Array.isArray(members)) return [];
  const inputs: MemberInput[] = [];
  for (const m of members) {
    const value = (m as { value?: unknown } | null)?.value;
    if (typeof value !== 'string' || value === '')
      throw scimErrors.invalidValue('Each of "members" must have a "value": the member\'s id.');
    inputs.push({ value });
  }
  return inputs;
}
