import type { MemberGroup } from '../../contracts/group-store.js';
import type { OutboxMessage } from '../../contracts/outbox.js';
import type { ListQuery, ListResult, UserStore } from '../../contracts/user-store.js';
import { isScimError } from '../../errors/index.js';
import { jsonMembersEqual } from '../../json/json-value.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { Projector } from '../../schema/project-resource.js';
import { checkKeyText } from '../../schema/check-key-text.js';
import { checkValueCounts } from '../../schema/check-value-counts.js';
import type { UserNameCheck } from '../../schema/user-name-rule.js';
import type { EventHub } from '../events/event-hub.js';
import { assertStoreFilters, assertStoreSorts } from '../resources/store-support.js';
import type { OutboxDispatcher } from '../outbox/outbox-dispatcher.js';
import { welcomeMessage } from '../outbox/welcome-message.js';
import {
  accountAfterActiveChange,
  activatedAccount,
  initialAccount,
  isActiveUser,
} from './account-status.js';
import { newId } from '../resources/new-id.js';
import { addGroups, keepsGroups } from './user-groups.js';
import { assembleUser, firstMeta, nextMeta, type UserAttributes } from './stored-user.js';
import { WritePipeline, notFound, type PlannedWrite, type WriteStep } from './write-pipeline.js';
import { ACCOUNT_SCHEMA } from '../../schema/urns.js';

export type { UserAttributes } from './stored-user.js';

/**
 * Computes a user's next attributes from the current user, or returns `null` when nothing is
 * to change. Throws a ScimError to refuse the change. The service reads the attributes and
 * never changes them: a transform may return a frozen or shared object.
 */
export type UserTransform = (current: ScimUser) => UserAttributes | null;

/** The user attributes a store keys on besides `userName` (see `checkKeyText`). */
const USER_KEYS = ['externalId'];

/**
 * The user operations behind the SCIM endpoints and the host API: account status, welcome
 * emails, versions and the rules every write meets live here, once; every write goes through
 * one `WritePipeline` (retries, If-Match, outbox, events).
 */
export class UserService {
  readonly #store: UserStore;
  readonly #writes: WritePipeline;
  readonly #now: () => Date;
  readonly #schemas: CompiledResourceType;
  /** Whether welcome emails are sent at all (the service has a mailer). */
  readonly #sends: boolean;

  constructor(
    store: UserStore,
    events: EventHub,
    /** Delivers the welcome email; without it (no mailer) none is queued. */
    outbox: OutboxDispatcher | undefined,
    now: () => Date,
    schemas: CompiledResourceType,
    private readonly limits: {
      readonly maxAttributeValues: number;
      /** The host's userName rule, applied here so every write (POST, PUT, PATCH) meets it. */
      readonly checkUserName: UserNameCheck;
      /** Hears of a welcome email that could not be queued (the user has no address). */
      readonly reportError: (error: unknown) => void;
    },
  ) {
    this.#schemas = schemas;
    this.#store = store;
    this.#now = now;
    this.#sends = outbox !== undefined;
    this.#writes = new WritePipeline(store, events, outbox, now);
  }

  /** Creates a user from validated attributes; queues the welcome email when active. */
  async create(tenant: string, attributes: UserAttributes): Promise<ScimUser> {
    checkValueCounts(attributes, this.#schemas, this.limits.maxAttributeValues);
    this.limits.checkUserName(attributes.userName);
    checkKeyText(attributes, USER_KEYS);
    const date = this.#now();
    const now = date.toISOString();
    const { account, invite } = initialAccount(attributes.active === true, now);
    const user = assembleUser({
      id: newId(date.getTime()),
      attributes,
      account,
      meta: firstMeta(now),
      type: this.#schemas,
    });
    await this.#writes.create(tenant, user, invite ? this.#welcome(tenant, user, now) : []);
    return user;
  }

  /** Reads a user or throws 404. */
  get(tenant: string, id: string): Promise<ScimUser> {
    // The store's promise, mapped: no async frame per GET. `Promise.resolve` takes a host
    // store's plain value as `await` did.
    return Promise.resolve(this.#store.get(tenant, id)).then((user) => {
      if (!user) throw notFound(id);
      return user;
    });
  }

  /**
   * Adds each user's `groups` (direct and indirect, computed from memberships, one store read
   * for all) when the response shaped by `project` shows them and the store keeps groups;
   * otherwise asks the store nothing and returns `users` as they are.
   */
  async withGroups(
    tenant: string,
    users: readonly ScimUser[],
    groupsUrl: string,
    project: Projector | undefined,
  ): Promise<readonly ScimUser[]> {
    const store = this.#store.groups;
    if (!store || users.length === 0 || !keepsGroups(project)) return users;
    return await addGroups(store, tenant, users, groupsUrl);
  }

  /** Lists a user's groups, direct and indirect; `null` when there is no such user. */
  async groupsOf(tenant: string, id: string): Promise<readonly MemberGroup[] | null> {
    if ((await this.#store.get(tenant, id)) === null) return null;
    return (await this.#store.groups?.groupsOf(tenant, id)) ?? [];
  }

  /** Throws 400 `invalidFilter` when the store declares it cannot answer `filter`. */
  assertFilterSupported(filter: Filter, text: string): void {
    assertStoreFilters(this.#store.capabilities, filter, text);
  }

  /** Throws 400 `invalidValue` when the store declares it cannot sort by `path`. */
  assertSortSupported(path: AttributePath, text: string): void {
    assertStoreSorts(this.#store.capabilities, path, text, 'users');
  }

  /** Lists users; the query carries the service's resource type (added when it has none). */
  list(tenant: string, query: ListQuery): Promise<ListResult> {
    return this.#store.list(
      tenant,
      query.resourceType ? query : { ...query, resourceType: this.#schemas },
    );
  }

  /**
   * Changes a user through `transform`, atomically against concurrent writers: with `ifMatch`
   * a stale version answers 412; without it the change is re-read and re-applied.
   */
  update(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    transform: UserTransform,
  ): Promise<ScimUser> {
    // Not async: the pipeline's promise is the answer, without another layer around it.
    return this.#writes.write(tenant, id, ifMatch, (current, now) =>
      this.#planUpdate(tenant, current, transform(current), now),
    );
  }

  /**
   * The write of `attributes` over `current`: the rules every write meets, the account status
   * after a change of `active`, and the welcome email on the first move into `Invited`;
   * `null` when nothing changes (or the transform asked for nothing).
   */
  #planUpdate(
    tenant: string,
    current: ScimUser,
    attributes: UserAttributes | null,
    now: string,
  ): PlannedWrite | null {
    if (attributes === null) return null;
    checkValueCounts(attributes, this.#schemas, this.limits.maxAttributeValues, current);
    checkKeyText(attributes, USER_KEYS, current);
    // A kept userName passed the rule when it was written: a host that tightens its rule
    // does not lock existing users out of every other change.
    if (attributes.userName !== current.userName) this.limits.checkUserName(attributes.userName);
    const { account, invite } = accountAfterActiveChange(
      current[ACCOUNT_SCHEMA],
      isActiveUser(current),
      activeValue(attributes.active),
      now,
    );
    const user = assembleUser({
      id: current.id,
      attributes,
      account,
      meta: nextMeta(current.meta, now),
      type: this.#schemas,
      current,
    });
    if (jsonMembersEqual(user, current, 'meta')) return null;
    return { user, outbox: invite ? this.#welcome(tenant, user, now) : [] };
  }

  /**
   * The welcome email to queue with a write, or none when the service sends none (no mailer)
   * or the user has no address: the account still moves on, and for a missing address the
   * host hears of it through `onError`.
   */
  #welcome(tenant: string, user: ScimUser, now: string): OutboxMessage[] {
    if (!this.#sends) return [];
    const message = welcomeMessage(tenant, user, now);
    if (message) return [message];
    this.limits.reportError(
      new Error(
        `No welcome email for user "${user.id}" of tenant "${tenant}": neither its userName nor its emails hold an email address.`,
      ),
    );
    return [];
  }

  /** Deletes a user or throws 404 (or 412 for a stale If-Match). */
  delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    return this.#writes.delete(tenant, id, ifMatch);
  }

  /** Moves an `Invited` user to `Activated` (first login). Returns null when there is no user. */
  activate(tenant: string, id: string): Promise<ScimUser | null> {
    return orNull(
      this.#writes.write(tenant, id, undefined, (current, now) => {
        const account = current[ACCOUNT_SCHEMA];
        if (account.status !== 'Invited') return null;
        return { user: this.#revise(current, activatedAccount(account, now), now), outbox: [] };
      }),
    );
  }

  /**
   * Queues the welcome email again for an `Invited` user; false when the user is not invited,
   * has no email address (see `welcomeAddress`), or the service sends no email (no mailer).
   */
  async resendInvitation(tenant: string, id: string): Promise<boolean> {
    let queued = false;
    const step: WriteStep = (current, now) => {
      // From the attempt that is written: the write may run this again on a newer version.
      queued = false;
      if (current[ACCOUNT_SCHEMA].status !== 'Invited') return null;
      const outbox = this.#welcome(tenant, current, now);
      if (outbox.length === 0) return null;
      queued = true;
      // A version bump makes the outbox write conditional like any other write; no client
      // sees a change, so lastModified stays.
      return { user: this.#revise(current, current[ACCOUNT_SCHEMA], undefined), outbox };
    };
    return (await orNull(this.#writes.write(tenant, id, undefined, step))) !== null && queued;
  }

  // The next version of `current` with another account (the host API's writes).
  #revise(current: ScimUser, account: ScimUser[typeof ACCOUNT_SCHEMA], now: string | undefined) {
    return assembleUser({
      id: current.id,
      attributes: current,
      account,
      meta: nextMeta(current.meta, now),
      type: this.#schemas,
      current,
    });
  }
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

// The `active` a write sets: a boolean, or undefined when the write leaves it unassigned.
function activeValue(active: unknown): boolean | undefined {
  return active === undefined ? undefined : active === true;
}
