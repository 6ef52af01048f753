import type { AttributePath, Filter } from '../filter/ast.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { ScimUser } from '../schema/user-resource.js';
import type { OutboxMessage, OutboxStore } from './outbox.js';

/** Side effects a store records in the same atomic write as the user. */
export interface WriteEffects {
  /** Emails to send once the write has been committed (the outbox). */
  readonly outbox?: readonly OutboxMessage[];
}

/** Options of {@link UserStore.replace}. */
export interface ReplaceOptions extends WriteEffects {
  /**
   * The `meta.version` the write is based on. The store replaces the user only if its stored
   * version is still this one, and otherwise throws `scimErrors.versionConflict()`.
   */
  readonly expectedVersion: string;
}

/** Options of {@link UserStore.delete}. */
export interface DeleteOptions {
  /** When set, delete only if the stored `meta.version` is still this one. */
  readonly expectedVersion?: string;
}

/** Sort order of a list query. */
export type SortOrder = 'ascending' | 'descending';

/** A page query, already validated by the core. */
export interface ListQuery {
  /** Only users that match this filter; already checked against the schema. */
  readonly filter?: Filter;
  /** 1-based index of the first result. Always at least 1. */
  readonly startIndex: number;
  /** Largest number of users to return; between 0 and the core's maximum. */
  readonly count: number;
  /**
   * Sort by this attribute (canonical names, checked against the schema) instead of by id;
   * ties are broken by id so paging stays stable. Users without a value sort last in
   * ascending order. Only sent when `capabilities.supportsSort` allows it.
   */
  readonly sortBy?: AttributePath;
  /** Direction of `sortBy`. Default ascending. */
  readonly sortOrder?: SortOrder;
  /**
   * The compiled User resource type (its schemas, the host's extensions included, and the one
   * resolver of attribute paths), for evaluating a filter or sort with each attribute's
   * definition (case-exactness, types). Always set by the core.
   */
  readonly resourceType?: CompiledResourceType;
}

/** One page of users and the number of users matching the query in all. */
export interface ListResult {
  readonly totalResults: number;
  readonly resources: readonly ScimUser[];
}

/** What a store can answer itself; the core checks it before calling {@link UserStore.list}. */
export interface StoreCapabilities {
  /**
   * Tells whether the store can answer this filter. When it cannot, the core answers a
   * precise 400 `invalidFilter` rather than a wrong result. Omitted: every filter.
   */
  readonly supportsFilter?: (filter: Filter) => boolean;
  /**
   * Tells whether the store can sort by this attribute. When it cannot (or this is omitted),
   * a `sortBy` request answers 400 `invalidValue` rather than an unsorted page.
   */
  readonly supportsSort?: (path: AttributePath) => boolean;
}

/**
 * Keeps users for scimkit. Every method is scoped to a tenant: a user of another tenant does
 * not exist for it. Methods receive validated users; PATCH, filtering rules and projection
 * stay in scimkit's engines. `null` or `false` mean "not found"; the only errors a store
 * throws on purpose are `scimErrors.uniqueness()` (userName taken in the tenant, regardless of
 * case) and `scimErrors.versionConflict()` (stale expected version).
 *
 * "Regardless of case" has one meaning, the same in every store: two userNames are one
 * identity when `userNameKey` (exported by `scimkit`: NFC, then Unicode simple case folding)
 * gives them the same key. A store keeps the userName exactly as sent, indexes it by
 * `userNameKey(user.userName)` for `create` and `replace`, and answers `userName eq` (and,
 * when it declares them, `co`/`sw`/`ew` and sorting on userName) by comparing keys. It never
 * folds on its own (SQL `lower()`, `toLowerCase`): those disagree with the key on non-ASCII
 * letters. The conformance suite (`scimkit/testing`) checks this with non-ASCII case pairs.
 *
 * Users are ordered by `id`; ids are time-ordered strings, so "by id" is creation order.
 *
 * @example
 * ```ts
 * const scim = createScim({ store: new MemoryUserStore(), verifier, mailer });
 * ```
 */
export interface UserStore {
  /** What the store answers itself. */
  readonly capabilities?: StoreCapabilities;
  /** The welcome-email outbox written together with users. */
  readonly outbox: OutboxStore;
  /**
   * Stores a new user; throws `scimErrors.uniqueness()` if its userName's key
   * (`userNameKey`) is taken in the tenant.
   */
  create(tenant: string, user: ScimUser, effects?: WriteEffects): Promise<void>;
  /**
   * Reads one user, or `null`. What it returns must not let the caller change stored state: a
   * fresh object, or one the store has deeply frozen. The core never changes it.
   */
  get(tenant: string, id: string): Promise<ScimUser | null>;
  /**
   * Replaces a user whose stored version is `expectedVersion`. Returns `false` when there is
   * no such user; throws `scimErrors.versionConflict()` or `scimErrors.uniqueness()`.
   */
  replace(tenant: string, user: ScimUser, options: ReplaceOptions): Promise<boolean>;
  /** Deletes a user; returns `false` when there is none. */
  delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean>;
  /**
   * Returns one page of users ordered by id, and how many match in all. The users returned are
   * as from `get`: fresh objects or deeply frozen ones; the core never changes them.
   */
  list(tenant: string, query: ListQuery): Promise<ListResult>;
}
