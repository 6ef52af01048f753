import type { OutboxMessage } from '../../contracts/outbox.js';
import type { ListQuery, ListResult, UserStore } from '../../contracts/user-store.js';
import { isScimError, scimErrors } from '../../errors/index.js';
import { jsonMembersEqual, shallowCopy } from '../../json/json-value.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import type { AccountExtension, ScimUser } from '../../schema/user-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { ACCOUNT_SCHEMA, USER_SCHEMA } from '../../schema/user-schema.js';
import { checkValueCounts } from '../../schema/check-value-counts.js';
import type { UserNameCheck } from '../../schema/user-name-rule.js';
import type { EventHub } from '../events/event-hub.js';
import { assertIfMatch } from '../http/etag.js';
import type { OutboxDispatcher } from '../outbox/outbox-dispatcher.js';
import { welcomeMessage } from '../outbox/welcome-message.js';
import { accountAfterActiveChange, initialAccount } from './account-status.js';
import { changedAttributes } from './changed-attributes.js';
import { KeyedLock } from './keyed-lock.js';
import { newId } from './new-id.js';
import { isoTimestamp } from './timestamp.js';
import { FIRST_VERSION, nextVersion } from './version.js';
import { previewJson } from '../../json/preview-json.js';

/** How many times a write without If-Match re-reads and re-applies after a version conflict. */
const MAX_WRITE_ATTEMPTS = 16;
const BOOKKEEPING = new Set(['meta', 'schemas', ACCOUNT_SCHEMA]);

/** The attributes of a user a client controls: everything but id, meta and the account. */
export type UserAttributes = Record<string, unknown>;

/**
 * Computes a user's next attributes from the current user, or returns `null` when nothing is
 * to change. Throws a ScimError to refuse the change. The attributes must be a new object: the
 * service takes it over and may set members on it.
 */
export type UserTransform = (current: ScimUser) => UserAttributes | null;

/**
 * The user operations behind the SCIM endpoints and the host API: account status, welcome
 * emails, versions, events and retries on concurrent writes live here, once.
 */
export class UserService {
  readonly #store: UserStore;
  readonly #events: EventHub;
  readonly #outbox: OutboxDispatcher;
  readonly #now: () => Date;
  // Writes are serialised per id, whatever the tenant: ids are generated and unique across
  // tenants, and two tenants naming the same unknown id only wait for each other. The key is
  // the id string the request already holds, so no key is built and hashed per write. The lock
  // saves retries; correctness rests on the store's version check.
  readonly #lock = new KeyedLock();

  readonly #schemas: CompiledResourceType;
  readonly #extensionIds: readonly string[];

  constructor(
    store: UserStore,
    events: EventHub,
    outbox: OutboxDispatcher,
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
    this.#extensionIds = schemas.extensions.map((s) => s.id).filter((id) => id !== ACCOUNT_SCHEMA);
    this.#store = store;
    this.#events = events;
    this.#outbox = outbox;
    this.#now = now;
  }

  /** Creates a user from validated attributes; queues the welcome email when active. */
  async create(tenant: string, attributes: UserAttributes): Promise<ScimUser> {
    const date = this.#now();
    const now = isoTimestamp(date);
    checkValueCounts(attributes, this.#schemas, this.limits.maxAttributeValues);
    this.limits.checkUserName(attributes.userName);
    const active = attributes.active === true;
    const { account, invite } = initialAccount(active, now);
    const user = this.#assemble(newId(date.getTime()), attributes, account, {
      resourceType: 'User',
      created: now,
      lastModified: now,
      version: FIRST_VERSION,
    });
    const outbox = invite ? this.#welcome(tenant, user, now) : [];
    await this.#store.create(tenant, user, { outbox });
    if (this.#events.active) this.#events.emit({ type: 'user.created', tenant, at: now, user });
    if (invite) this.#outbox.kick();
    return user;
  }

  /** Reads a user or throws 404. */
  async get(tenant: string, id: string): Promise<ScimUser> {
    const user = await this.#store.get(tenant, id);
    if (!user) throw notFound(id);
    return user;
  }

  /** Throws 400 `invalidFilter` when the store declares it cannot answer `filter`. */
  assertFilterSupported(filter: Filter, text: string): void {
    const supports = this.#store.capabilities?.supportsFilter;
    if (supports && !supports(filter)) {
      throw scimErrors.invalidFilter(
        `The filter "${text}" is valid, but this server's store cannot answer it.`,
      );
    }
  }

  /** Throws 400 `invalidValue` when the store declares it cannot sort by `path`. */
  assertSortSupported(path: AttributePath, text: string): void {
    const supports = this.#store.capabilities?.supportsSort;
    if (!supports || !supports(path)) {
      throw scimErrors.invalidValue(
        `"sortBy": this server's store cannot sort by ${previewJson(text)}.`,
      );
    }
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
  async update(
    tenant: string,
    id: string,
    ifMatch: string | undefined,
    transform: UserTransform,
  ): Promise<ScimUser> {
    const turn = this.#lock.acquire(id);
    if (turn !== undefined) await turn;
    try {
      for (let attempt = 1; ; attempt++) {
        // The store directly, not `this.get`, and the write below inline, not in a method of
        // its own: each async layer is a promise and a turn of the microtask queue per write.
        const current = await this.#store.get(tenant, id);
        if (!current) throw notFound(id);
        assertIfMatch(ifMatch, current.meta.version);
        const attributes = transform(current);
        if (attributes === null) return current;
        checkValueCounts(attributes, this.#schemas, this.limits.maxAttributeValues, current);
        // A kept userName passed the rule when it was written: a host that tightens its rule
        // does not lock existing users out of every other change.
        if (attributes.userName !== current.userName)
          this.limits.checkUserName(attributes.userName);
        const now = isoTimestamp(this.#now());
        const next = this.#nextVersion(current, attributes, now);
        if (next === null) return current;
        const { user, invite } = next;
        const expectedVersion = current.meta.version;
        try {
          const replaced = await this.#store.replace(
            tenant,
            user,
            invite
              ? { expectedVersion, outbox: this.#welcome(tenant, user, now) }
              : { expectedVersion },
          );
          if (!replaced) throw notFound(id);
        } catch (error) {
          const conflict = isScimError(error) && error.status === 412;
          if (!conflict || ifMatch !== undefined || attempt >= MAX_WRITE_ATTEMPTS) throw error;
          await backOff(attempt);
          continue;
        }
        this.#emitUpdate(tenant, now, current, user);
        if (invite) this.#outbox.kick();
        return user;
      }
    } finally {
      this.#lock.release(id);
    }
  }

  /**
   * The next version of `current` with `attributes`, frozen, and whether it moves the account
   * into `Invited` for the first time; `null` when it would be the same user.
   */
  #nextVersion(
    current: ScimUser,
    attributes: UserAttributes,
    now: string,
  ): { readonly user: ScimUser; readonly invite: boolean } | null {
    const { account, invite } = accountAfterActiveChange(
      current[ACCOUNT_SCHEMA],
      current.active,
      attributes.active === true,
      now,
    );
    const user = this.#assemble(current.id, attributes, account, current.meta, current.schemas);
    if (jsonMembersEqual(user, current, 'meta')) return null;
    // `user` is a new object of ours: its meta is set in place, not by copying it again.
    const meta = shallowCopy(current.meta);
    meta.lastModified = now;
    meta.version = nextVersion(current.meta.version);
    user.meta = Object.freeze(meta);
    if (account !== current[ACCOUNT_SCHEMA]) Object.freeze(account);
    Object.freeze(user);
    return { user, invite };
  }

  /**
   * The welcome email to queue with a write, or none when the user has no address: the account
   * still moves on, and the host hears of it through `onError`.
   */
  #welcome(tenant: string, user: ScimUser, now: string): OutboxMessage[] {
    const message = welcomeMessage(tenant, user, now);
    if (message) return [message];
    this.limits.reportError(
      new Error(
        `No welcome email for user "${user.id}" of tenant "${tenant}": neither its userName nor its emails hold an email address.`,
      ),
    );
    return [];
  }

  #emitUpdate(tenant: string, at: string, before: ScimUser, after: ScimUser): void {
    if (!this.#events.active) return;
    const changed = changedAttributes(before, after, BOOKKEEPING);
    this.#events.emit({ type: 'user.updated', tenant, at, before, after, changed });
    if (before.active && !after.active)
      this.#events.emit({ type: 'user.deactivated', tenant, at, user: after });
    if (!before.active && after.active)
      this.#events.emit({ type: 'user.reactivated', tenant, at, user: after });
  }

  /** Builds a stored user: `schemas` lists the extensions present; `active` is always a boolean. */
  #assemble(
    id: string,
    attributes: UserAttributes,
    account: AccountExtension,
    meta: ScimUser['meta'],
    previousSchemas?: readonly string[],
  ): ScimUser {
    // A write that keeps the extensions keeps the previous list (frozen when stored), not a copy.
    const schemas =
      previousSchemas && this.#listsExtensionsOf(previousSchemas, attributes)
        ? previousSchemas
        : this.#schemasOf(attributes);
    let user: Record<string, unknown>;
    if (hasStoredLayout(attributes)) {
      // A PATCH result keeps the stored layout (schemas and id first, the account and meta
      // last), and it is the transform's new object (see UserTransform): with those members
      // set, it is the user.
      user = attributes;
      user.schemas = schemas;
      user.id = id;
    } else {
      // One pass over the attributes, in their order (an object rest and a spread made two).
      // They are own data of a parsed or copied JSON value: `for...in` sees exactly those.
      user = { schemas, id };
      for (const key in attributes) {
        // The core sets these itself, whatever the attributes say.
        if (key === 'id' || key === 'meta' || key === 'schemas' || key === ACCOUNT_SCHEMA) continue;
        const value = attributes[key];
        // A client may send a "__proto__" member: keep it as data, never as the prototype.
        if (key === '__proto__') {
          Object.defineProperty(user, key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else user[key] = value;
      }
    }
    user.userName = attributes.userName as string;
    user.active = attributes.active === true;
    user[ACCOUNT_SCHEMA] = account;
    user.meta = meta;
    return user as ScimUser;
  }

  /** The `schemas` of a user with these attributes: the core schema, extensions present, the account. */
  #schemasOf(attributes: UserAttributes): readonly string[] {
    const schemas = [USER_SCHEMA];
    for (const urn of this.#extensionIds) if (attributes[urn] !== undefined) schemas.push(urn);
    schemas.push(ACCOUNT_SCHEMA);
    return Object.freeze(schemas);
  }

  /** Whether `schemas` is exactly what {@link #schemasOf} would build, without building it. */
  #listsExtensionsOf(schemas: readonly string[], attributes: UserAttributes): boolean {
    if (schemas[0] !== USER_SCHEMA) return false;
    let at = 1;
    for (const urn of this.#extensionIds) {
      if (attributes[urn] !== undefined && schemas[at++] !== urn) return false;
    }
    return schemas.length === at + 1 && schemas[at] === ACCOUNT_SCHEMA;
  }

  /** Deletes a user or throws 404 (or 412 for a stale If-Match). */
  async delete(tenant: string, id: string, ifMatch: string | undefined): Promise<void> {
    let expectedVersion: string | undefined;
    if (ifMatch !== undefined) {
      const current = await this.get(tenant, id);
      assertIfMatch(ifMatch, current.meta.version);
      expectedVersion = current.meta.version;
    }
    const deleted = await this.#store.delete(
      tenant,
      id,
      expectedVersion === undefined ? {} : { expectedVersion },
    );
    if (!deleted) throw notFound(id);
    if (this.#events.active)
      this.#events.emit({ type: 'user.deleted', tenant, at: isoTimestamp(this.#now()), id });
  }

  /** Moves an `Invited` user to `Activated` (first login). Returns null when there is no user. */
  activate(tenant: string, id: string): Promise<ScimUser | null> {
    return this.#lock.run(id, () => this.#activate(tenant, id));
  }

  async #activate(tenant: string, id: string): Promise<ScimUser | null> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.#store.get(tenant, id);
      if (!current) return null;
      const account = current[ACCOUNT_SCHEMA];
      if (account.status !== 'Invited') return current;
      const now = isoTimestamp(this.#now());
      const user: ScimUser = {
        ...current,
        [ACCOUNT_SCHEMA]: { ...account, status: 'Activated', activatedAt: now },
        meta: { ...current.meta, lastModified: now, version: nextVersion(current.meta.version) },
      };
      try {
        if (!(await this.#store.replace(tenant, user, { expectedVersion: current.meta.version })))
          return null;
      } catch (error) {
        if (isScimError(error) && error.status === 412 && attempt < MAX_WRITE_ATTEMPTS) continue;
        throw error;
      }
      if (this.#events.active) this.#events.emit({ type: 'user.activated', tenant, at: now, user });
      return user;
    }
  }

  /**
   * Queues the welcome email again for an `Invited` user; false when the user is not invited
   * or has no email address (see `welcomeAddress`).
   */
  resendInvitation(tenant: string, id: string): Promise<boolean> {
    return this.#lock.run(id, () => this.#resendInvitation(tenant, id));
  }

  async #resendInvitation(tenant: string, id: string): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.#store.get(tenant, id);
      if (!current || current[ACCOUNT_SCHEMA].status !== 'Invited') return false;
      const now = isoTimestamp(this.#now());
      const outbox = this.#welcome(tenant, current, now);
      if (outbox.length === 0) return false;
      // A version bump makes the outbox write conditional like any other write.
      const user: ScimUser = {
        ...current,
        meta: { ...current.meta, version: nextVersion(current.meta.version) },
      };
      try {
        if (
          !(await this.#store.replace(tenant, user, {
            expectedVersion: current.meta.version,
            outbox,
          }))
        )
          return false;
      } catch (error) {
        if (isScimError(error) && error.status === 412 && attempt < MAX_WRITE_ATTEMPTS) continue;
        throw error;
      }
      this.#outbox.kick();
      return true;
    }
  }
}

// Another process won the race: wait a little (random, growing) so the two stop colliding.
function backOff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** Math.min(attempt, 6)));
}

// Whether the members run schemas, id, ..., the account extension, meta (as #assemble lays
// out every stored user), so that a copy of them is laid out the same.
function hasStoredLayout(attributes: UserAttributes): boolean {
  let index = 0;
  let last = '';
  let beforeLast = '';
  for (const key in attributes) {
    if ((index === 0 && key !== 'schemas') || (index === 1 && key !== 'id')) return false;
    index++;
    beforeLast = last;
    last = key;
  }
  return index > 3 && beforeLast === ACCOUNT_SCHEMA && last === 'meta';
}

function notFound(id: string) {
  return scimErrors.notFound(`User ${previewJson(id)} not found.`);
}
