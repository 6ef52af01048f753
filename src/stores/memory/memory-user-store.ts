import type {
  DeleteOptions,
  ListQuery,
  ListResult,
  ReplaceOptions,
  StoreCapabilities,
  UserStore,
  WriteEffects,
} from '../../contracts/user-store.js';
import type { SubscriptionStore } from '../../contracts/event-subscriptions.js';
import type { GroupStore } from '../../contracts/group-store.js';
import { ScimConfigError, scimErrors } from '../../errors/index.js';
import type { Filter } from '../../filter/ast.js';
import { compileFilter } from '../../filter/index.js';
import { checkMaxFilterWork } from './check-max-filter-work.js';
import { WORK_COSTS, type WorkMeter } from '../../filter/work-meter.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { userResourceType } from '../../schema/user-resource-type.js';
import { cloneJson, frozenCopy, frozenNextVersion } from './clone-json.js';
import { candidateIds, idsEqualToAny, isIndexOnly, matchesIndexed } from './filter-plan.js';
import { DEFAULT_EVENTS_KEPT, MemoryEventLog } from './memory-event-log.js';
import { MemoryGroupStore } from './memory-group-store.js';
import { MemorySubscriptionStore } from './memory-subscription-store.js';
import { scanTable } from './scan-table.js';
import { groupIdEquality, groupsAttribute, groupsPartsRead } from '../user-group-paths.js';
import { SharedLists } from './shared-lists.js';
import { MemoryTable } from './tenant-table.js';
import { TenantUsers } from './tenant-users.js';

/** Options of {@link MemoryUserStore}. */
export interface MemoryUserStoreOptions {
  /**
   * The resource type filters and sorts are evaluated against when a query carries none
   * (case-exactness, types, sub-attributes). Default: `userResourceType()`, the core User, the
   * Enterprise User extension and the account extension.
   */
  readonly resourceType?: CompiledResourceType;
  /**
   * The most work units (`WORK_COSTS`: a visit per user and per filter term tested, the
   * characters compared and folded, the keys and comparisons of a sort) one list request may
   * spend evaluating its filter and `sortBy` over users and groups; past it the request answers
   * 400 `tooMany` naming the limit. Index lookups (`id`, `userName`, `externalId` eq, a group's
   * members) cost nearly nothing; a list without filter or sort is never charged. Default
   * 20,000,000 (`DEFAULT_MAX_FILTER_WORK`), about 0.1 s of work; `Infinity` turns it off.
   */
  readonly maxFilterWork?: number;
  /**
   * Whether the store keeps the directory event log (`events`): every write of users, groups
   * and of the `MemoryResourceStore`s given this log records its events in it. Default `true`;
   * `false` keeps no log, and the core builds no event for the store's writes.
   */
  readonly events?: boolean;
  /**
   * How many events the log keeps, the most recent ones: a log in memory must not grow for as
   * long as the process runs (each event holds the resource as it stood). Past it the oldest
   * event goes. A reader that falls further behind loses events, and is told so: a
   * `scim.events.list` whose `after` is older than a dropped event of its tenant (and types)
   * rejects with a 400 `invalidCursor` instead of skipping it (omit `after` to read from the
   * oldest kept), and a durable subscriber reports that error to `onError` and delivers
   * nothing more of that tenant until it is replayed. Default 10,000; `Infinity` keeps every
   * one until the retention purge.
   */
  readonly eventsKept?: number;
}

/**
 * Keeps users in memory, indexed per tenant: id, userName by its key (`userNameKey`), externalId, and the
 * id order. A lookup by id, userName or externalId and a page of `count` users cost the same
 * with 100 users as with 1,000,000. Users go in as deep copies and are stored deeply frozen,
 * and reads hand out those frozen users without copying them: no caller can change stored
 * state (changing a returned user throws in strict mode). Every write checks, then changes every index, in one synchronous step,
 * so concurrent requests cannot interleave. The event log and the subscribers' delivery state
 * live in the same process and are lost with it: use `scimkit/postgres` when users must
 * outlive a restart.
 *
 * @example
 * ```ts
 * import { createScim } from 'scimkit';
 * import { MemoryUserStore } from 'scimkit/memory';
 *
 * const store = new MemoryUserStore();
 * const scim = createScim({ store, verifier, mailer });
 * // later, in a test or a development console:
 * console.log(await scim.mail?.attempts({ tenant: 'district-42' }));
 * ```
 */
export class MemoryUserStore implements UserStore {
  readonly #users: MemoryTable<ScimUser, TenantUsers>;
  readonly #resourceType: CompiledResourceType;
  /** The `schemas` lists stored users share. */
  readonly #schemas = new SharedLists();
  readonly #groups: MemoryGroupStore;

  /** The groups and memberships; a user's delete removes its memberships in the same step. */
  readonly groups: GroupStore;
  /**
   * The directory event log, written in the same synchronous step as each write; absent with
   * `events: false`. Hand it to a `MemoryResourceStore` (`{ events: store.events }`) so one
   * log holds the events of every type.
   */
  readonly events?: MemoryEventLog;
  readonly #log: MemoryEventLog | undefined;
  /** The delivery state of durable event subscribers, in the same process. */
  readonly subscriptions: SubscriptionStore;

  /**
   * What the store answers itself: every filter but one on `groups.$ref`, and every sort but
   * by `groups`.
   * Indexed equalities (`id`, `userName`, `externalId` eq, alone or combined) are lookups;
   * `groups.value eq` (or `groups[value eq ...]`) narrows to the group's members through the
   * membership index; any other filter is evaluated by the filter engine over the tenant's
   * users (with their groups, when it reads them); a sort orders the matches. Scans and sorts
   * stay within `maxFilterWork` (400 `tooMany` past it).
   */
  readonly capabilities: StoreCapabilities = {
    // A group's `$ref` depends on the request's base URL, which a store never sees.
    supportsFilter: (filter) => !groupsPartsRead(filter, this.#resourceType).has('$ref'),
    // `groups` is computed from memberships, not kept with the user: nothing to order by.
    supportsSort: (path) => groupsAttribute(path, this.#resourceType) === undefined,
    keysetPaging: true,
  };

  /**
   * @throws ScimConfigError when `eventsKept` is not a whole number ≥ 1 or `Infinity`, or
   *   `maxFilterWork` not a number > 0.
   */
  constructor(options: MemoryUserStoreOptions = {}) {
    this.#resourceType = options.resourceType ?? userResourceType();
    const maxFilterWork = checkMaxFilterWork('MemoryUserStore', options.maxFilterWork);
    this.#users = new MemoryTable(() => new TenantUsers(), maxFilterWork);
    const eventsKept = options.eventsKept ?? DEFAULT_EVENTS_KEPT;
    if (!(eventsKept >= 1 && (Number.isInteger(eventsKept) || eventsKept === Infinity)))
      throw new ScimConfigError(
        `MemoryUserStore: eventsKept must be a whole number ≥ 1 or Infinity (got ${String(eventsKept)}).`,
      );
    this.#log = options.events === false ? undefined : new MemoryEventLog(eventsKept);
    if (this.#log) this.events = this.#log;
    this.#groups = new MemoryGroupStore(
      (tenant, id) => this.#users.of(tenant)?.byId.has(id) ?? false,
      maxFilterWork,
      this.#log,
    );
    this.groups = this.#groups;
    this.subscriptions = new MemorySubscriptionStore();
  }

  /** Stores a new user; throws `scimErrors.uniqueness()` when its userName is taken. */
  async create(tenant: string, user: ScimUser, effects?: WriteEffects): Promise<void> {
    const users = this.#users.for(tenant);
    // The core never reuses an id; a duplicate is a programming error, not a client's.
    if (users.byId.has(user.id))
      throw new Error(`MemoryUserStore: id "${user.id}" already exists.`);
    // Users created with equal `schemas` lists share one (a list of its own is ~200 bytes).
    const schemas = this.#schemas.share(user.schemas);
    // With the shared list in place of its own, the user's other members are taken as they are.
    const stored =
      schemas === user.schemas ? frozenCopy(user) : frozenNextVersion({ ...user, schemas }, user);
    if (!users.addUnlessTaken(stored)) throw taken(user.userName);
    this.#log?.record(effects?.events, user, stored);
  }

  /** Returns the user (deeply frozen, so shared safely), or `null`. */
  async get(tenant: string, id: string): Promise<ScimUser | null> {
    // Stored users are deeply frozen: sharing them is as safe as a copy, and free.
    return this.#users.get(tenant, id);
  }

  /** Replaces a user at its expected version; `false` when there is no such user. */
  async replace(tenant: string, user: ScimUser, options: ReplaceOptions): Promise<boolean> {
    const found = this.#users.find(tenant, user.id, options.expectedVersion);
    if (!found) return false;
    const [users, stored] = found;
    // Most writes keep the userName: then it is still this user's, with no index lookup.
    if (user.userName !== stored.userName) {
      const owner = users.ownerOf(user.userName);
      if (owner !== undefined && owner !== user.id) throw taken(user.userName);
    }
    const next = frozenNextVersion(user, stored);
    users.swap(stored, next);
    this.#log?.record(options.events, user, next);
    return true;
  }

  /** Deletes a user and its memberships; `false` when there is no such user. */
  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    if (!this.#users.delete(tenant, id, options?.expectedVersion)) return false;
    const left = this.#groups.forgetMember(tenant, id);
    this.#log?.record(options?.events);
    // Called with no log too: the service tells its listeners what the delete removed.
    const removals = options?.membershipEvents?.(left);
    this.#log?.record(removals);
    return true;
  }

  /** Answers one page of the tenant's users, from its indexes. */
  async list(tenant: string, query: ListQuery): Promise<ListResult> {
    const type = query.resourceType ?? this.#resourceType;
    return this.#users.list(
      tenant,
      query,
      type,
      (users) => (filter, meter) => this.#matching(tenant, users, filter, type, meter),
    );
  }

  /**
   * Returns the users matching `filter` in id order, from an index when one applies; each user
   * tested is charged to `meter`.
   */
  #matching(
    tenant: string,
    users: TenantUsers,
    filter: Filter,
    type: CompiledResourceType,
    meter: WorkMeter,
  ): ScimUser[] {
    // `userName eq "..."`, or several indexed equalities joined by `or` (an IdP's batch lookup,
    // the welcome email's page): index lookups, their union in id order, nothing to test.
    const any = idsEqualToAny(users, filter);
    if (any) return [...any].sort().map((id) => users.byId.get(id) as ScimUser);
    const memberships = {
      type,
      membersUnder: (groupId: string) => this.#groups.membersUnder(tenant, groupId),
    };
    // `groups.value eq "g"` alone: the group's member users are the matches, nothing to test.
    if (groupIdEquality(filter, type) !== undefined)
      return [...(candidateIds(users, filter, memberships) ?? [])]
        .sort()
        .map((id) => users.byId.get(id) as ScimUser);
    const test = this.#predicate(tenant, filter, type, meter);
    const candidates = candidateIds(users, filter, memberships);
    if (!candidates) return scanTable(users, test, meter);
    // An `id` or `userName` equality within an `and` has at most one candidate: nothing to sort.
    if (candidates.size <= 1) {
      for (const id of candidates) {
        const user = users.byId.get(id);
        return user && test(user) ? [user] : [];
      }
      return [];
    }
    return [...candidates]
      .sort()
      .map((id) => users.byId.get(id) as ScimUser)
      .filter(test);
  }

  /**
   * Returns a copy of a user exactly as stored, or `null`; the back door the conformance suite
   * reads through (`readStored`).
   */
  peek(tenant: string, id: string): ScimUser | null {
    const user = this.#users.of(tenant)?.byId.get(id);
    return user ? cloneJson(user) : null;
  }

  #predicate(
    tenant: string,
    filter: Filter,
    type: CompiledResourceType,
    meter: WorkMeter,
  ): (user: ScimUser) => boolean {
    if (isIndexOnly(filter)) return (user) => matchesIndexed(user, filter, meter);
    const test = compileFilter(filter, type, meter);
    if (groupsPartsRead(filter, type).size === 0) return test;
    // The filter engine reads `groups` as the user's representation shows them, computed
    // from the membership index for each user it tests.
    return (user) => {
      const groups = this.#groups.groupsOfNow(tenant, user.id, true);
      meter.spend(groups.length * WORK_COSTS.visit);
      return test(groups.length === 0 ? user : { ...user, groups });
    };
  }
}

function taken(userName: string) {
  return scimErrors.uniqueness(`userName "${userName}" is already taken.`);
}
