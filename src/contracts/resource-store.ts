import type { CompiledResourceType } from '../schema/resource-type.js';
import type { EventEffects, EventLog } from './event-log.js';
import type { ListQuery, StorePage } from './store-query.js';
import type { TypeStore } from './type-store.js';

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

/** Options of a `ResourceStore`'s `create`. */
export interface ResourceCreateOptions extends EventEffects {
  /** Keys no other resource of the tenant may hold for the same attribute (409 if one does). */
  readonly uniqueKeys: UniqueKeys;
}

/** Options of a `ResourceStore`'s `replace`. */
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
export type ResourceListResult = StorePage<ScimResource>;

/** A host type's `TypeStoreShape`: what {@link ResourceStore}'s methods take and answer. */
export interface ResourceStoreShape {
  /** A resource of the type. */
  readonly resource: ScimResource;
  /** The unique keys the new resource holds. */
  readonly createArgs: [options: ResourceCreateOptions];
  /** Nothing. */
  readonly getArgs: [];
  /** The expected version, and the unique keys the resource holds after the write. */
  readonly replaceOptions: ResourceReplaceOptions;
  /** `true` when replaced, `false` when there is no such resource. */
  readonly replaced: boolean;
  /** The page query, which always carries the compiled type. */
  readonly query: ResourceListQuery;
}

/**
 * Keeps the resources of one resource type a host registers (a district's `Class`, say): the
 * `TypeStore` contract with a host type's shape. The core computes each resource's unique keys
 * (its attributes with `uniqueness` `server` or `global`) and sends them with every write; a
 * store keeps them in a unique index.
 *
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
export interface ResourceStore extends TypeStore<ResourceStoreShape> {
  /**
   * The log this store records the events of its writes in: the user store's `events` (one log
   * for every type), which a store can record into atomically with its own writes (the same
   * database and transaction; for `MemoryResourceStore`, the same process). Omitted: the store
   * records no events and the core builds none for its writes.
   */
  readonly events?: EventLog;
}
