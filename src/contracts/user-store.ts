import type { ScimUser } from '../schema/user-resource.js';
import type { EventEffects, EventLog } from './event-log.js';
import type { SubscriptionStore } from './event-subscriptions.js';
import type { GroupStore } from './group-store.js';
import type { ListQuery, StorePage } from './store-query.js';
import type { TypeStore } from './type-store.js';

export type {
  DeleteOptions,
  ListPosition,
  ListQuery,
  ListSeek,
  ListSeekResult,
  SortOrder,
  StoreCapabilities,
  StorePage,
} from './store-query.js';

/** Side effects a store records in the same atomic write as the user: its events. */
export type WriteEffects = EventEffects;

/** Options of {@link UserStore.replace}. */
export interface ReplaceOptions extends WriteEffects {
  /**
   * The `meta.version` the write is based on. The store replaces the user only if its stored
   * version is still this one, and otherwise throws `scimErrors.versionConflict()`.
   */
  readonly expectedVersion: string;
}

/** One page of users and the number of users matching the query in all. */
export type ListResult = StorePage<ScimUser>;

/** The User's `TypeStoreShape`: what {@link UserStore}'s methods take and answer. */
export interface UserStoreShape {
  /** A user. */
  readonly resource: ScimUser;
  /** The write's side effects (its events), recorded in the same atomic step. */
  readonly createArgs: [effects?: WriteEffects];
  /** Nothing. */
  readonly getArgs: [];
  /** The expected version, and the write's side effects. */
  readonly replaceOptions: ReplaceOptions;
  /** `true` when replaced, `false` when there is no such user. */
  readonly replaced: boolean;
  /** The users' page query. */
  readonly query: ListQuery;
}

/**
 * Keeps users for scimkit: the {@link TypeStore} contract with the User's shape, plus the
 * optional groups, event log and subscription state kept beside the users.
 *
 * A user's unique key is its userName's: two userNames are one identity when `userNameKey`
 * (exported by `scimkit`: NFC, then Unicode simple case folding) gives them the same key. A
 * store keeps the userName exactly as sent, indexes it by `userNameKey(user.userName)` for
 * `create` and `replace`, and answers `userName eq` (and, when it declares them,
 * `co`/`sw`/`ew` and sorting on userName) by comparing keys. The conformance suite
 * (`scimkit/testing`) checks this with non-ASCII case pairs.
 *
 * A user that `get` or `list` returns may carry the readOnly `groups` attribute, when the store
 * read them in the same atomic step as the user: every group the user is in, direct and
 * indirect, as `groups.groupsOfMembers` lists them (`{ value, display, type }`, no `$ref`; an
 * empty array for none). The core then shows those, adding each `$ref`, instead of asking
 * `groups`; a user without them is answered from one `groupsOfMembers` read for all the users
 * of the answer. Never partial: a store that read only some of them leaves `groups` off. The
 * core never stores them: what `create` and `replace` receive has no `groups`.
 *
 * @example
 * ```ts
 * const scim = createScim({ store: new MemoryUserStore(), verifier, mailer });
 * ```
 */
export interface UserStore extends TypeStore<UserStoreShape> {
  /**
   * The groups and memberships, written in the same atomic steps as the users (a user's
   * delete removes its memberships). Omitted: the store keeps no groups and `/Groups` answers
   * 501.
   */
  readonly groups?: GroupStore;
  /**
   * The directory event log: the events every write of this store family (users, groups, and
   * host types whose stores record into it) is handed, recorded atomically with the write.
   * Omitted: the store keeps no log, the core builds no event for it, and `scim.events`
   * refuses to list.
   */
  readonly events?: EventLog;
  /**
   * The delivery state of durable event subscribers (checkpoints, leases, attempts, dead
   * letters), in the same database as the event log. Omitted: `scim.events.subscribe` is
   * refused.
   */
  readonly subscriptions?: SubscriptionStore;
}
