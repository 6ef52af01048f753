import type { GroupMember } from '../schema/group-schema.js';
import type { MembershipEventEffects } from './event-log.js';
import type { DeleteOptions, ListQuery, StoreCapabilities, StorePage } from './store-query.js';

/** What every stored resource carries: its id and its version. */
export interface StoredResource {
  /** The id the core assigned, unique within the tenant; ids are time-ordered strings. */
  readonly id: string;
  /** The resource's metadata; `version` is the weak ETag (`W/"n"`) writes are checked against. */
  readonly meta: { readonly version: string };
}

/**
 * The parts in which the stores of two resource types differ, named once per type: what a
 * resource is, what `create` and `get` take after it, what `replace` takes and answers, and
 * the page query of `list`. `UserStore`, `GroupStore` and `ResourceStore` are
 * {@link TypeStore}s of their shape.
 */
export interface TypeStoreShape {
  /** The resource as the core hands it to the store and reads it back. */
  readonly resource: StoredResource;
  /** What `create` takes after the resource (a user's write effects, a group's members). */
  readonly createArgs: readonly unknown[];
  /** What `get` takes after the id (a group's read options); usually nothing. */
  readonly getArgs: readonly unknown[];
  /** The options of `replace`: at least the version the write is based on. */
  readonly replaceOptions: { readonly expectedVersion: string };
  /** What `replace` resolves to: `false` or `null` when there is no such resource. */
  readonly replaced: unknown;
  /** The page query `list` receives: a {@link ListQuery}, perhaps with more. */
  readonly query: ListQuery;
}

/**
 * Keeps the resources of one resource type for scimkit: the one contract a store author
 * implements, once per type. The User (`UserStore`), the Group (`GroupStore`) and every type a
 * host registers (`ResourceStore`) are this contract with their {@link TypeStoreShape}.
 *
 * Every method is scoped to a tenant: a resource of another tenant does not exist for it.
 * Methods receive validated resources; validation, PATCH, versions, the meaning of filters and
 * projection stay in scimkit's engines. `null` or `false` mean "not found". The only errors a
 * store throws on purpose are scimkit's own (`scimErrors` of `scimkit`):
 * - `scimErrors.uniqueness()` when a write would give the resource a unique key another
 *   resource of the tenant holds. The core computes the keys (a host type's `uniqueKeys`; a
 *   user's key is `userNameKey(user.userName)`), so a store compares keys and never folds
 *   case on its own (SQL `lower()`, `toLowerCase` disagree with the key on non-ASCII letters);
 * - `scimErrors.versionConflict()` when `expectedVersion` is not the stored `meta.version`;
 * - `scimErrors.invalidValue()` for a membership the store refuses (see
 *   {@link MembershipDeltas}).
 *
 * Each write is one atomic step: all of it, or nothing. Resources are ordered by `id`; ids are
 * time-ordered strings, so "by id" is creation order. What `get` and `list` return must not
 * let the caller change stored state: fresh objects, or ones the store has deeply frozen.
 *
 * `capabilities` declares what `list` answers itself (filters, sorting, keyset paging) and,
 * for a type whose multi-valued attribute is kept apart from the resource, that attribute:
 * the core answers a precise 400 before calling the store for anything else. `scimkit/testing`'s
 * `runStoreConformance` holds a store to this contract.
 *
 * @example
 * ```ts
 * import type { TypeStore, UserStore } from 'scimkit';
 *
 * // A user store is the contract with the User's shape:
 * const store: UserStore = new MemoryUserStore();
 * const same: TypeStore<UserStoreShape> = store;
 * ```
 */
export interface TypeStore<S extends TypeStoreShape> {
  /** What the store answers itself in `list`. Omitted: every filter, no sorting, no cursors. */
  readonly capabilities?: StoreCapabilities;
  /**
   * Stores a new resource, with what the type's shape adds (`createArgs`); throws
   * `scimErrors.uniqueness()` when one of its unique keys is taken in the tenant.
   */
  create(tenant: string, resource: S['resource'], ...args: S['createArgs']): Promise<void>;
  /** Reads one resource, or `null`. */
  get(tenant: string, id: string, ...args: S['getArgs']): Promise<S['resource'] | null>;
  /**
   * Replaces a resource whose stored version is `options.expectedVersion`, in one atomic step;
   * resolves to `false` (or `null`) when there is no such resource; throws
   * `scimErrors.versionConflict()` or `scimErrors.uniqueness()`.
   */
  replace(
    tenant: string,
    resource: S['resource'],
    options: S['replaceOptions'],
  ): Promise<S['replaced']>;
  /**
   * Deletes a resource (only at `options.expectedVersion`, when given, else throws
   * `scimErrors.versionConflict()`), and every membership it is part of; `false` when there
   * is none.
   */
  delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean>;
  /**
   * Returns one page of the resources that match `query.filter`, ordered by id (or by
   * `sortBy`, ties by id), from `startIndex`, at most `count`, and how many match in all; with
   * `query.seek` (only sent when `capabilities.keysetPaging` is true) the keyset page and its
   * places.
   */
  list(tenant: string, query: S['query']): Promise<StorePage<S['resource']>>;
}

/** Options of {@link MembershipDeltas.addMembers} and {@link MembershipDeltas.removeMembers}. */
export interface MembershipOptions extends MembershipEventEffects {
  /** When set, change the resource only if its stored `meta.version` is still this one. */
  readonly expectedVersion?: string;
  /** The time to record as `meta.lastModified` (ISO 8601). Default: the store's clock. */
  readonly lastModified?: string;
}

/** Options of {@link MembershipDeltas.members}. */
export interface MemberPageOptions {
  /** Start after this member id (the last of the previous page); omitted: from the first. */
  readonly after?: string;
  /** Largest number of members to return (at least 1). */
  readonly count: number;
}

/**
 * A member to add: the id of a resource of the same tenant, and the display text to record
 * with the membership. The store finds out which type the id is.
 */
export interface MemberInput {
  /** The member's id. */
  readonly value: string;
  /** A human-readable name of the member, kept with the membership. */
  readonly display?: string;
}

/** What a membership write did. */
export interface MembershipChange {
  /**
   * The memberships this call created or removed, in the order given; a member that was
   * already there (add) or was not (remove) is not listed. A host emits one event per entry.
   */
  readonly changed: readonly GroupMember[];
  /** The resource's `meta.version` after the call (unchanged when `changed` is empty). */
  readonly version: string;
  /** The resource's `meta.lastModified` after the call. */
  readonly lastModified: string;
}

/**
 * The membership deltas of a type whose multi-valued attribute is kept apart from the
 * resource (the Group's `members`, declared as `capabilities.keptApart`): one row per
 * (resource, member), so that adding or removing one member, and reading the resource without
 * its members, cost the same for 100,000 members as for 10. No call reads or rewrites the
 * whole list except a read that asks for it and a `replace` that sends a new one.
 *
 * Rules every store keeps, in the same atomic step as the write: a member is a resource of the
 * same tenant (any other id is refused with `scimErrors.invalidValue()` naming it, and
 * nothing is written); a member added twice is one membership; removing a non-member is not an
 * error; a change that changes something bumps the version (`W/"n"` to `W/"n+1"`) and sets
 * `meta.lastModified`; concurrent calls on one resource all land.
 */
export interface MembershipDeltas {
  /**
   * Adds members, all or none; `null` when there is no such resource. Cost does not grow with
   * the number of members already there.
   */
  addMembers(
    tenant: string,
    groupId: string,
    members: readonly MemberInput[],
    options?: MembershipOptions,
  ): Promise<MembershipChange | null>;
  /**
   * Removes members (by id), all in one step; ids that are not members are ignored. `null`
   * when there is no such resource.
   */
  removeMembers(
    tenant: string,
    groupId: string,
    memberIds: readonly string[],
    options?: MembershipOptions,
  ): Promise<MembershipChange | null>;
  /**
   * Reads one page of the members in ascending id order (the order `get` lists them), after
   * `options.after`: a host walks 100,000 members page by page, never holding the whole list.
   * `null` when there is no such resource.
   */
  members(
    tenant: string,
    groupId: string,
    options: MemberPageOptions,
  ): Promise<readonly GroupMember[] | null>;
  /**
   * Reads the first `count` members (as `members` reads them) of each of several resources in
   * one read, so that a page of small groups costs one read rather than one per group. The map
   * has an entry for each given id that has members. Optional: without it the core calls
   * `members` once per resource.
   */
  firstMembers?(
    tenant: string,
    groupIds: readonly string[],
    count: number,
  ): Promise<ReadonlyMap<string, readonly GroupMember[]>>;
}
