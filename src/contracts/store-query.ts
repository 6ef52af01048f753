import type { DirectoryEvent, EventEffects } from './event-log.js';
import type { AttributePath, Filter } from '../filter/ast.js';
import type { CompiledResourceType } from '../schema/resource-type.js';

/** Options of a store's `delete`: the expected version, and the events recorded with it. */
export interface DeleteOptions extends EventEffects {
  /** When set, delete only if the stored `meta.version` is still this one. */
  readonly expectedVersion?: string;
  /**
   * The events of the memberships the delete removes, given for a user or a group (the
   * resources that can be members): only the store knows which groups held the resource when
   * it was deleted, so a store that keeps groups calls this inside the delete, once, after the
   * resource is gone, with the ids of the groups it removed it from (each once, in ascending id
   * order; empty for none), and records the events it returns after `events`, in the same
   * atomic step. A delete that finds nothing, or a stale version, calls it not at all. A store
   * that keeps no log calls it too and records nothing: the service's in-process listeners
   * (`scim.on`) hear the removals from it.
   */
  readonly membershipEvents?: (groupIds: readonly string[]) => readonly DirectoryEvent[];
}

/** Sort order of a list query. */
export type SortOrder = 'ascending' | 'descending';

/** A page query, already validated by the core (users; groups extend it). */
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
   * The compiled resource type (its schemas, the host's extensions included, and the one
   * resolver of attribute paths), for evaluating a filter or sort with each attribute's
   * definition (case-exactness, types). Always set by the core.
   */
  readonly resourceType?: CompiledResourceType;
  /**
   * Keyset paging (RFC 9865 cursors): when set, `startIndex` is 1 and the page is the `count`
   * users that come right after (or, backward, right before) `seek.from` in the query's order.
   * The result then carries {@link StorePage.seek}. Only sent when
   * `capabilities.keysetPaging` is true.
   */
  readonly seek?: ListSeek;
}

/**
 * A place in a list's order: the user with this id and sort key. The user need not exist any
 * more; the place stays where it was, so users created or deleted meanwhile are neither
 * skipped nor repeated.
 */
export interface ListPosition {
  /** The user's id (the tie-breaker of every order). */
  readonly id: string;
  /**
   * The user's sort key as the store reported it in {@link StorePage.seek}, when the query
   * has a `sortBy`; absent when the order is by id or the user had no value to sort by.
   */
  readonly key?: string | number | boolean;
}

/** Where a keyset page starts, and in which direction it reads. */
export interface ListSeek {
  /**
   * The page follows (forward) or precedes (backward) this place; absent: the first page
   * (forward) or the last one (backward).
   */
  readonly from?: ListPosition;
  /** `forward` (default) reads the `count` users after `from`; `backward` those right before it. */
  readonly direction?: 'forward' | 'backward';
}

/** One page of resources and the number matching the query in all (what `list` returns). */
export interface StorePage<R> {
  /** How many resources match the query in all, across every page. */
  readonly totalResults: number;
  /** The resources of this page, in the query's order. */
  readonly resources: readonly R[];
  /** For a query with `seek` only: where the page starts and ends, and whether more follow. */
  readonly seek?: ListSeekResult;
}

/** What a store reports about a keyset page (see {@link ListQuery.seek}). */
export interface ListSeekResult {
  /** The place of the page's first user; absent when the page is empty. */
  readonly first?: ListPosition;
  /** The place of the page's last user; absent when the page is empty. */
  readonly last?: ListPosition;
  /**
   * Whether more users match beyond the page in the direction read: after `last` (forward),
   * before `first` (backward).
   */
  readonly more: boolean;
}

/** What a store can answer itself; the core checks it before calling the store's `list`. */
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
  /**
   * Whether `list` honours {@link ListQuery.seek} (keyset paging). When it does not (or this is
   * omitted), the core does not advertise RFC 9865 cursors and answers a `cursor` with 400
   * `invalidCursor`.
   */
  readonly keysetPaging?: boolean;
  /**
   * The multi-valued attributes the store keeps apart from the resource, one row per value,
   * changed through membership deltas (`MembershipDeltas`) rather than by rewriting the
   * resource: `['members']` for a group store. Omitted: none; every attribute is kept with
   * the resource.
   */
  readonly keptApart?: readonly string[];
}
