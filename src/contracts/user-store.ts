import type { ScimUser } from '../schema/user-resource.js';
import type { GroupStore } from './group-store.js';
import type { OutboxMessage, OutboxStore } from './outbox.js';
import type { DeleteOptions, ListQuery, ListSeekResult, StoreCapabilities } from './store-query.js';

export type {
  DeleteOptions,
  ListPosition,
  ListQuery,
  ListSeek,
  ListSeekResult,
  SortOrder,
  StoreCapabilities,
} from './store-query.js';

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

/** One page of users and the number of users matching the query in all. */
export interface ListResult {
  /** How many users match the query in all, across every page. */
  readonly totalResults: number;
  /** The users of this page, in the query's order. */
  readonly resources: readonly ScimUser[];
  /** For a query with `seek` only: where the page starts and ends, and whether more follow. */
  readonly seek?: ListSeekResult;
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
  /**
   * The welcome-email outbox written together with users. Needed only by a service with a
   * `mailer`: a store without it never receives outbox messages (`createScim` refuses the
   * pair with a `ScimConfigError`).
   */
  readonly outbox?: OutboxStore;
  /**
   * The groups and memberships, written in the same atomic steps as the users (a user's
   * delete removes its memberships). Omitted: the store keeps no groups and `/Groups` answers
   * 501.
   */
  readonly groups?: GroupStore;
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
  /**
   * Deletes a user; returns `false` when there is none. A store with `groups` removes the
   * user's memberships in the same atomic step.
   */
  delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean>;
  /**
   * Returns one page of users ordered by id, and how many match in all. The users returned are
   * as from `get`: fresh objects or deeply frozen ones; the core never changes them.
   */
  list(tenant: string, query: ListQuery): Promise<ListResult>;
}
