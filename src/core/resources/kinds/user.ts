import type { MemberGroup } from '../../../contracts/group-store.js';
import type { DeleteOptions, ListQuery } from '../../../contracts/store-query.js';
import type { ReplaceOptions, UserStore } from '../../../contracts/user-store.js';
import { jsonMembersEqual } from '../../../json/json-value.js';
import { applyPatchIn } from '../../../patch/apply-patch.js';
import type { PatchContext } from '../../../patch/patch-context.js';
import { checkImmutable } from '../../../schema/check-immutable.js';
import { checkKeyText } from '../../../schema/check-key-text.js';
import { checkValueCounts } from '../../../schema/check-value-counts.js';
import type { CompiledResourceType } from '../../../schema/resource-type.js';
import { ACCOUNT_SCHEMA } from '../../../schema/urns.js';
import type { UserNameCheck } from '../../../schema/user-name-rule.js';
import type { AccountExtension, ScimUser } from '../../../schema/user-resource.js';
import type { ResourceInput } from '../../../schema/validate-resource-input.js';
import type { ChangedAttributes, ScimEvent } from '../../events/types.js';
import type { ResourcePage } from '../../handlers/resource-endpoint.js';
import { welcomeAddress } from '../../mail/welcome-email.js';
import {
  accountAfterActiveChange,
  activatedAccount,
  initialAccount,
  isActiveUser,
} from '../../users/account-status.js';
import { assembleUser, firstMeta, nextMeta, type UserAttributes } from '../../users/stored-user.js';
import { changedUserAttributes, userEvents } from '../../users/user-events.js';
import { carriedGroups, withGroupsMember } from '../../users/user-groups.js';
import type { EventRecorder, PatchStep, ResourceKind, WriteOnlyValues } from '../resource-kind.js';
import type { ResourceService } from '../resource-service.js';

/** The `groups` of a user in no group, as a store hands them over (see `UserStore.get`). */
const NO_GROUPS: readonly MemberGroup[] = Object.freeze([]);

/** The user attributes a store keys on besides `userName` (see `checkKeyText`). */
const USER_KEYS = ['externalId'];

/** The next version of a user to store, and what goes with it. */
export interface PlannedUserWrite {
  /** The next version (from `assembleUser`), with the version after the current one. */
  readonly user: ScimUser;
  /** Whether the write records `user.invited`: a welcome email is due. */
  readonly invited: boolean;
  /**
   * The attributes a client controls that the write changes (see `changedUserAttributes`);
   * empty for a creation.
   */
  readonly changed: ChangedAttributes;
}

/** A user's service: the one resource service, configured by {@link UserKind}. */
export type UserService = ResourceService<ScimUser, PlannedUserWrite, PlannedUserWrite>;

/** What the User's rules need besides its store and type. */
export interface UserSettings {
  /** Whether the service sends welcome emails (has a mailer); without, no `user.invited`. */
  readonly invites: boolean;
  /** Most values of one multi-valued attribute (`maxAttributeValues`). */
  readonly maxAttributeValues: number;
  /** The host's userName rule, applied here so every write (POST, PUT, PATCH) meets it. */
  readonly checkUserName: UserNameCheck;
  /** The host's password hook, if any. */
  readonly onPassword:
    ((tenant: string, userId: string, password: string) => void | Promise<void>) | undefined;
  /**
   * Hears of a fault that must not fail the request: a failing password hook, a welcome email
   * that cannot be sent (the user has no address).
   */
  readonly reportError: (error: unknown) => void;
}

/**
 * The User as the one resource service serves it: its account status and welcome email
 * (docs/lifecycle.md) follow every change of `active`; every write meets the host's userName
 * rule; a PUT that omits `active` keeps it; the writeOnly `password` goes to the host's hook
 * after the write. Events: `user.created|updated|deactivated|reactivated|activated|deleted`,
 * and `user.invited` when a welcome email is due.
 */
export class UserKind implements ResourceKind<ScimUser, PlannedUserWrite, PlannedUserWrite> {
  readonly name = 'User';
  readonly memberType = 'User';
  readonly plural = 'users';

  constructor(
    private readonly store: UserStore,
    /** The User resource type: its `schemasOf` lists the extensions a user has. */
    private readonly type: CompiledResourceType,
    private readonly settings: UserSettings,
  ) {}

  get capabilities() {
    return this.store.capabilities;
  }

  read(tenant: string, id: string): Promise<ScimUser | null> {
    return this.store.get(tenant, id);
  }

  /** The user a write works on: without the `groups` the store read with it (never stored). */
  stored(read: ScimUser): ScimUser {
    return withGroupsMember(read, undefined);
  }

  /** Lists users; the query carries the User resource type (added when it has none). */
  list(tenant: string, query: ListQuery): Promise<ResourcePage<ScimUser>> {
    return this.store.list(
      tenant,
      query.resourceType ? query : { ...query, resourceType: this.type },
    );
  }

  get recordsEvents(): boolean {
    return this.store.events !== undefined;
  }

  async insert(
    tenant: string,
    planned: PlannedUserWrite,
    record: EventRecorder<PlannedUserWrite> | undefined,
  ): Promise<PlannedUserWrite> {
    await this.store.create(tenant, planned.user, record ? { events: record(planned) } : {});
    return planned;
  }

  async write(
    tenant: string,
    current: ScimUser,
    planned: PlannedUserWrite,
    _ifMatch: string | undefined,
    record: EventRecorder<PlannedUserWrite> | undefined,
  ): Promise<PlannedUserWrite | null> {
    const expectedVersion = current.meta.version;
    const events = record?.(planned);
    const options: ReplaceOptions =
      events && events.length > 0 ? { expectedVersion, events } : { expectedVersion };
    return (await this.store.replace(tenant, planned.user, options)) ? planned : null;
  }

  remove(tenant: string, id: string, options: DeleteOptions): Promise<boolean> {
    return this.store.delete(tenant, id, options);
  }

  /** A new user, `Invited` with the welcome email when created active, else `Pending`. */
  async planCreate(
    tenant: string,
    id: string,
    input: ResourceInput,
    now: string,
  ): Promise<PlannedUserWrite> {
    const { attributes } = input;
    checkValueCounts(attributes, this.type, this.settings.maxAttributeValues);
    this.settings.checkUserName(attributes.userName);
    checkKeyText(attributes, USER_KEYS);
    const { account, invite } = initialAccount(attributes.active === true, now);
    const user = assembleUser({ id, attributes, account, meta: firstMeta(now), type: this.type });
    return { user, invited: invite && this.#welcome(tenant, user), changed: [] };
  }

  /**
   * PUT: readWrite attributes left out are cleared (roles included), except `active`, which an
   * omitted value leaves as it is; a change to a set immutable attribute is 400 `mutability`.
   */
  async planReplace(
    tenant: string,
    current: ScimUser,
    input: ResourceInput,
    now: string,
  ): Promise<PlannedUserWrite | null> {
    // Checked against the version being replaced, so a concurrent write cannot slip past it.
    const kept = checkImmutable(current, input.attributes, this.type);
    const active = input.attributes.active ?? current.active;
    // No copy when the PUT sent `active`, the usual case.
    const attributes = kept.active === active ? kept : { ...kept, active };
    return this.#planUpdate(tenant, current, attributes, now);
  }

  /** PATCH: a `password` the operations set, however they name it, goes to the hook. */
  async planPatch(
    ctx: PatchContext,
    tenant: string,
    current: ScimUser,
    body: unknown,
    now: string,
  ): Promise<PatchStep<PlannedUserWrite>> {
    const result = applyPatchIn(ctx, current, body);
    const write = result.changed ? this.#planUpdate(tenant, current, result.resource, now) : null;
    return { write, writeOnly: result.writeOnly };
  }

  after(done: PlannedUserWrite): ScimUser {
    return done.user;
  }

  /**
   * The answer to a write, with the groups it shows when the store keeps groups: a new user
   * is in none (a member must exist when it is added), so a creation shows none without a
   * read; a PATCH or PUT shows the groups the store read with the version it wrote over, when
   * it handed them over. Those are what that read saw rather than the write: the user written
   * is the settled object the core built, which a memory store keeps as it is, so a store
   * cannot hand groups back on it, and a contract member to hand them back apart is what the
   * store contracts keep out. A membership committed between the read and the write (it
   * changes no user's version) shows from the next read.
   */
  shown(left: ScimUser, read: ScimUser | null): ScimUser {
    if (!this.store.groups) return left;
    if (read === null) return withGroupsMember(left, NO_GROUPS);
    const groups = carriedGroups(read);
    return groups === undefined ? left : withGroupsMember(left, groups);
  }

  events(
    tenant: string,
    at: string,
    id: string,
    before: ScimUser | null,
    done: PlannedUserWrite | null,
  ): ScimEvent[] {
    const events = userEvents(tenant, at, id, before, done?.user ?? null, done?.changed ?? []);
    if (done?.invited === true) events.push({ type: 'user.invited', tenant, at, user: done.user });
    return events;
  }

  /**
   * Hands a client's writeOnly `password` (a string: the engine coerced it to the attribute's
   * type) to the host's hook after the write. A failing hook is reported to `onError`; the
   * SCIM request has already succeeded.
   */
  async delivered(tenant: string, user: ScimUser, writeOnly: WriteOnlyValues): Promise<void> {
    const hook = this.settings.onPassword;
    const { password } = writeOnly;
    if (typeof password !== 'string' || !hook) return;
    try {
      await hook(tenant, user.id, password);
    } catch (error) {
      this.settings.reportError(error);
    }
  }

  /** The write of a first login: an `Invited` user becomes `Activated`; `null` for any other. */
  activation(current: ScimUser, now: string): PlannedUserWrite | null {
    const account = current[ACCOUNT_SCHEMA];
    if (account.status !== 'Invited') return null;
    const user = this.#revise(current, activatedAccount(account, now), now);
    return { user, invited: false, changed: [] };
  }

  /**
   * The write that records `user.invited` again for an `Invited` user; `null` when the user
   * is not invited, has no email address, or the service sends no email (no mailer).
   */
  invitation(tenant: string, current: ScimUser): PlannedUserWrite | null {
    if (current[ACCOUNT_SCHEMA].status !== 'Invited') return null;
    if (!this.#welcome(tenant, current)) return null;
    // A version bump makes the event's write conditional like any other write; no client sees
    // a change, so lastModified stays.
    const user = this.#revise(current, current[ACCOUNT_SCHEMA], undefined);
    return { user, invited: true, changed: [] };
  }

  /**
   * The write of `attributes` over `current`: the rules every write meets, the account status
   * after a change of `active`, and the welcome email on the first move into `Invited`;
   * `null` when nothing changes.
   */
  #planUpdate(
    tenant: string,
    current: ScimUser,
    attributes: UserAttributes,
    now: string,
  ): PlannedUserWrite | null {
    checkValueCounts(attributes, this.type, this.settings.maxAttributeValues, current);
    checkKeyText(attributes, USER_KEYS, current);
    // A kept userName passed the rule when it was written: a host that tightens its rule
    // does not lock existing users out of every other change.
    if (attributes.userName !== current.userName) this.settings.checkUserName(attributes.userName);
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
      type: this.type,
      current,
    });
    // Listed once, for the write's `user.updated` too.
    const changed = changedUserAttributes(current, user);
    if (changed.length === 0 && jsonMembersEqual(user, current, 'meta')) return null;
    return { user, invited: invite && this.#welcome(tenant, user), changed };
  }

  /**
   * Says whether a welcome email is due for `user` with a write: not when the service sends
   * none (no mailer) or the user has no address; the account still moves on, and for a
   * missing address the host hears of it through `onError`.
   */
  #welcome(tenant: string, user: ScimUser): boolean {
    if (!this.settings.invites) return false;
    if (welcomeAddress(user) !== undefined) return true;
    this.settings.reportError(
      new Error(
        `No welcome email for user "${user.id}" of tenant "${tenant}": neither its userName nor its emails hold an email address.`,
      ),
    );
    return false;
  }

  // The next version of `current` with another account (the host API's writes).
  #revise(current: ScimUser, account: AccountExtension, now: string | undefined): ScimUser {
    return assembleUser({
      id: current.id,
      attributes: current,
      account,
      meta: nextMeta(current.meta, now),
      type: this.type,
      current,
    });
  }
}

// The `active` a write sets: a boolean, or undefined when the write leaves it unassigned.
function activeValue(active: unknown): boolean | undefined {
  return active === undefined ? undefined : active === true;
}
