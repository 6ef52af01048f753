import type { CompiledResourceType } from '../schema/resource-type.js';
import type { DeleteOptions, ListQuery, ListSeekResult, StoreCapabilities } from './store-query.js';

/** A host resource's metadata, as stored: every value but `location`, which is per request. */
export interface ResourceMeta {
  /** The resource type's name, such as `Class`. */
  readonly resourceType: string;
  /** When the resource was created (RFC 3339). */
  readonly created: string;
  /** When the resource last changed (RFC 3339). */
  readonly lastModified: string;
  /** The weak ETag, `W/"n"`. */
  readonly version: string;
  /** The resource's URL; never stored (responses add it per request). */
  readonly location?: string;
}

/**
 * A resource of a type the host registers (`createScim({ resourceTypes })`), as scimkit
 * stores and returns it: SCIM JSON with `schemas`, `id`, the attributes of its schemas (core
 * ones at the top level, extension ones under their URN) and `meta` last.
 */
export interface ScimResource {
  /** The schema URNs the resource uses: the core schema first, then its extensions. */
  readonly schemas: readonly string[];
  /** The id the core assigned, unique within the tenant. */
  readonly id: string;
  /** The resource's metadata. */
  readonly meta: ResourceMeta;
  /** The resource's attributes, by name (an extension's under its URN). */
  readonly [attribute: string]: unknown;
}

/**
 * The keys of a resource's unique attributes (RFC 7643 §7 `uniqueness` `server` or `global`),
 * computed by the core: attribute name (`code`, or `urn:…:name` for an extension's) → key.
 * Strings that are not `caseExact` are keyed by their Unicode simple case folding, so a store
 * compares keys and never folds on its own.
 */
export type UniqueKeys = Readonly<Record<string, string>>;

/** Options of {@link ResourceStore.create}. */
export interface ResourceCreateOptions {
  /** Keys no other resource of the tenant may hold for the same attribute (409 if one does). */
  readonly uniqueKeys: UniqueKeys;
}

/** Options of {@link ResourceStore.replace}. */
export interface ResourceReplaceOptions extends ResourceCreateOptions {
  /** The `meta.version` the write is based on; a stale one throws `versionConflict`. */
  readonly expectedVersion: string;
}

/** A page query of host resources: always carries the compiled resource type. */
export interface ResourceListQuery extends ListQuery {
  /** The compiled resource type, which filters and sorts resolve in. */
  readonly resourceType: CompiledResourceType;
}

/** One page of host resources and the number matching the query in all. */
export interface ResourceListResult {
  /** How many resources match the query in all. */
  readonly totalResults: number;
  /** The page's resources, in the query's order. */
  readonly resources: readonly ScimResource[];
  /** For a query with `seek` only: where the page starts and ends, and whether more follow. */
  readonly seek?: ListSeekResult;
}

/**
 * Keeps the resources of one resource type a host registers (a district's `Class`, say).
 * Every method is scoped to a tenant and receives validated resources: validation, PATCH,
 * versions, filters' meaning and projection stay in scimkit. `null` or `false` mean "not
 * found"; the only errors a store throws on purpose are `scimErrors.uniqueness()` (a unique
 * key taken in the tenant) and `scimErrors.versionConflict()` (stale expected version).
 *
 * Resources are ordered by `id`; ids are time-ordered strings, so "by id" is creation order.
 * `scimkit/memory`'s `MemoryResourceStore` is a ready one; a production store (SQL, say) keeps
 * each resource as a JSON document, its unique keys in a unique index, and declares in
 * `capabilities` which filters and sorts it answers; the core answers a precise 400 for the
 * others.
 *
 * @example
 * ```ts
 * createScim({
 *   store, verifier, mailer,
 *   resourceTypes: [{ name: 'Class', endpoint: '/Classes', schema: classSchema, store: new MemoryResourceStore() }],
 * });
 * ```
 */
export interface ResourceStore {
  /** What the store answers itself in {@link ResourceStore.list}. Omitted: filters, no sorting. */
  readonly capabilities?: StoreCapabilities;
  /** Stores a new resource; throws `scimErrors.uniqueness()` when a unique key is taken. */
  create(tenant: string, resource: ScimResource, options: ResourceCreateOptions): Promise<void>;
  /**
   * Reads one resource, or `null`. What it returns must not let the caller change stored
   * state: a fresh object, or one the store has deeply frozen.
   */
  get(tenant: string, id: string): Promise<ScimResource | null>;
  /**
   * Replaces a resource whose stored `meta.version` is `expectedVersion` (else throws
   * `scimErrors.versionConflict()`), with its new unique keys (`scimErrors.uniqueness()` when
   * another resource holds one), in one atomic step. Returns `false` when there is none.
   */
  replace(
    tenant: string,
    resource: ScimResource,
    options: ResourceReplaceOptions,
  ): Promise<boolean>;
  /** Deletes a resource (only at `expectedVersion`, when given); `false` when there is none. */
  delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean>;
  /**
   * Returns one page of the resources that match `query.filter`, ordered by id (or by
   * `sortBy`, ties by id), from `startIndex`, at most `count`, and how many match in all. A
   * store that declares `capabilities.keysetPaging` honours `query.seek` as a `UserStore` does
   * (RFC 9865 cursors on the type's endpoint).
   */
  list(tenant: string, query: ResourceListQuery): Promise<ResourceListResult>;
}
