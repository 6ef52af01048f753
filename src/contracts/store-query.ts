import type { AttributePath, Filter } from '../filter/ast.js';
import type { CompiledResourceType } from '../schema/resource-type.js';

/** Options of a store's `delete` (users and groups). */
export interface DeleteOptions {
  /** When set, delete only if the stored `meta.version` is still this one. */
  readonly expectedVersion?: string;
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
}
