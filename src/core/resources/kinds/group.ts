import type { MembershipEventChange } from '../../../contracts/event-log.js';
import type { GroupStore, MemberInput } from '../../../contracts/group-store.js';
import type { DeleteOptions, ListQuery } from '../../../contracts/store-query.js';
import { scimErrors } from '../../../errors/index.js';
import { DeltaPlan } from '../../../patch/delta-plan.js';
import type { PatchContext } from '../../../patch/patch-context.js';
import { planPatch, planPatchWithValues, type PatchPlan } from '../../../patch/plan-patch.js';
import { checkImmutable } from '../../../schema/check-immutable.js';
import { checkKeyText } from '../../../schema/check-key-text.js';
import type { ScimGroup } from '../../../schema/group-schema.js';
import type { CompiledResourceType } from '../../../schema/resource-type.js';
import type { AttributeDefinition } from '../../../schema/types.js';
import type { ResourceInput } from '../../../schema/validate-resource-input.js';
import type { EventHub } from '../../events/event-hub.js';
import type { ScimEvent } from '../../events/types.js';
import { groupEvents } from '../../groups/group-events.js';
import type { GroupWritten, PlannedGroupWrite } from '../../groups/group-write.js';
import { assembleGroup, firstGroupMeta, nextGroupMeta } from '../../groups/stored-group.js';
import type { ResourcePage } from '../../handlers/resource-endpoint.js';
import type { EventRecorder, PatchStep, ResourceKind } from '../resource-kind.js';
import type { ResourceService } from '../resource-service.js';

/** The group attributes a store keys on (see `checkKeyText`). */
const GROUP_KEYS = ['displayName', 'externalId'];

/** A group's service: the one resource service, configured by {@link GroupKind}. */
export type GroupService = ResourceService<ScimGroup, PlannedGroupWrite, GroupWritten>;

/**
 * The Group as the one resource service serves it: its members are kept apart by the store and
 * change as deltas (planned by the PATCH engine, see `planPatch`), so adding or removing one
 * member costs the same for a group of 100,000 members as for a group of 10; reads ask the
 * store for no members (a response that shows them reads them within its budget, see
 * `readMembers`). Events: `group.created|updated|deleted`, one `group.member_added` or
 * `group.member_removed` per membership changed.
 */
export class GroupKind implements ResourceKind<ScimGroup, PlannedGroupWrite, GroupWritten> {
  readonly name = 'Group';
  readonly memberType = 'Group';
  readonly plural = 'groups';
  readonly readsBack = true;

  constructor(
    private readonly store: GroupStore,
    private readonly type: CompiledResourceType,
    /** Whether anyone listens: a new group's members are read back only for their events. */
    private readonly hub: EventHub,
    /** Whether the store family keeps an event log (the user store's `events`). */
    readonly recordsEvents: boolean,
  ) {}

  get capabilities() {
    return this.store.capabilities;
  }

  read(tenant: string, id: string): Promise<ScimGroup | null> {
    return this.store.get(tenant, id, { members: false });
  }

  list(tenant: string, query: ListQuery): Promise<ResourcePage<ScimGroup>> {
    return this.store.list(tenant, { ...query, members: false });
  }

  /** Creates the group with its members; 400 `invalidValue` for a member not in the tenant. */
  async insert(
    tenant: string,
    planned: PlannedGroupWrite,
    record: EventRecorder<GroupWritten> | undefined,
  ): Promise<GroupWritten> {
    const group = planned.group as ScimGroup;
    const effects = record && {
      events: ({ added }: MembershipEventChange) =>
        record({ group, renamed: false, added, removed: [] }),
    };
    await this.store.create(tenant, group, planned.created ?? [], effects);
    const stored = (await this.store.get(tenant, group.id, { members: this.hub.active })) ?? group;
    const { members, ...answer } = stored;
    return { group: answer as ScimGroup, renamed: false, added: members ?? [], removed: [] };
  }

  // One store step: a membership-only delta of one kind, without a version to hold to, needs
  // none (the store applies it atomically, whoever else writes); anything else is one
  // `replace` under the version read.
  async write(
    tenant: string,
    current: ScimGroup,
    planned: PlannedGroupWrite,
    ifMatch: string | undefined,
    record: EventRecorder<GroupWritten> | undefined,
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
      const held =
        ifMatch === undefined && planned.onVersion !== true
          ? { lastModified: at }
          : { lastModified: at, expectedVersion: current.meta.version };
      const options = record
        ? {
            ...held,
            events: (change: MembershipEventChange) =>
              record({ group: current, renamed: false, ...change }),
          }
        : held;
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
    const renamed = planned.group !== null;
    const result = await this.store.replace(tenant, group, {
      ...(record && {
        events: (change: MembershipEventChange) => record({ group, renamed, ...change }),
      }),
      expectedVersion: current.meta.version,
      ...(list === undefined ? {} : { members: list }),
      ...(removes.length > 0 ? { removeMembers: removes } : {}),
      ...(adds.length > 0 ? { addMembers: adds } : {}),
    });
    if (!result) return null;
    return { group, renamed, ...result };
  }

  /** DELETE: the group and every membership it is part of. */
  remove(tenant: string, id: string, options: DeleteOptions): Promise<boolean> {
    return this.store.delete(tenant, id, options);
  }

  async planCreate(
    _tenant: string,
    id: string,
    input: ResourceInput,
    now: string,
  ): Promise<PlannedGroupWrite> {
    const { members, ...attributes } = input.attributes;
    checkKeyText(attributes, GROUP_KEYS);
    const group = assembleGroup(id, attributes, firstGroupMeta(now), this.type);
    return { group, members: new DeltaPlan(), created: memberInputs(members), at: now };
  }

  /** PUT: the attributes and the whole member list are replaced (omitted members: none). */
  async planReplace(
    _tenant: string,
    current: ScimGroup,
    input: ResourceInput,
    now: string,
  ): Promise<PlannedGroupWrite> {
    const { members, ...attributes } = input.attributes;
    const plan = new DeltaPlan();
    plan.replace(memberInputs(members));
    const kept = checkImmutable(current, attributes, this.type);
    checkKeyText(kept, GROUP_KEYS, current);
    const group = assembleGroup(current.id, kept, nextGroupMeta(current.meta, now), this.type);
    return { group, members: plan, at: now };
  }

  /**
   * PATCH: attribute changes and membership deltas in one store step (see `planPatch`). The
   * operations that need the member list (a filter on `display`, say) are applied to the group
   * read with its members, and the write then holds only on the version read.
   */
  async planPatch(
    ctx: PatchContext,
    tenant: string,
    current: ScimGroup,
    body: unknown,
    now: string,
  ): Promise<PatchStep<PlannedGroupWrite>> {
    const members = membersOf(ctx);
    const plan = planPatch(ctx, current, body, members);
    if (plan) return { write: this.#planned(current, plan, now, false), writeOnly: {} };
    const full = await this.store.get(tenant, current.id);
    // Another writer came between the two reads (or deleted the group): the loop reads again.
    if (!full || full.meta.version !== current.meta.version) throw scimErrors.versionConflict();
    const listed = planPatchWithValues(ctx, full, body, members);
    return { write: this.#planned(current, listed, now, true), writeOnly: {} };
  }

  after(done: GroupWritten): ScimGroup {
    return done.group;
  }

  events(
    tenant: string,
    at: string,
    id: string,
    before: ScimGroup | null,
    done: GroupWritten | null,
  ): ScimEvent[] {
    return groupEvents(tenant, at, id, before, done);
  }

  #planned(
    current: ScimGroup,
    plan: PatchPlan,
    now: string,
    onVersion: boolean,
  ): PlannedGroupWrite | null {
    if (plan.attributes !== null) checkKeyText(plan.attributes, GROUP_KEYS, current);
    const group =
      plan.attributes === null
        ? null
        : assembleGroup(current.id, plan.attributes, nextGroupMeta(current.meta, now), this.type);
    if (group === null && !plan.values.touched) return null;
    return { group, members: plan.values, at: now, onVersion };
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
