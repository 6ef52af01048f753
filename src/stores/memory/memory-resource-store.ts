import type {
  ResourceCreateOptions,
  ResourceListQuery,
  ResourceListResult,
  ResourceReplaceOptions,
  ResourceStore,
  ScimResource,
  UniqueKeys,
} from '../../contracts/resource-store.js';
import type { DeleteOptions, StoreCapabilities } from '../../contracts/store-query.js';
import { scimErrors } from '../../errors/index.js';
import { compileFilter, compileSort } from '../../filter/index.js';
import { filterWorkMeter } from '../../filter/filter-work-meter.js';
import { WORK_COSTS } from '../../filter/work-meter.js';
import { checkMaxFilterWork } from './check-max-filter-work.js';
import { previewJson } from '../../json/preview-json.js';
import { frozenCopy } from './clone-json.js';
import { idOrderPage, placesOf, seekPage } from './seek-page.js';
import { SortedIds } from './sorted-ids.js';

/** Options of {@link MemoryResourceStore}. */
export interface MemoryResourceStoreOptions {
  /**
   * The most work units one list request may spend evaluating its filter and `sortBy` over
   * the tenant's resources (see `MemoryUserStoreOptions.maxFilterWork`); past it the request
   * answers 400 `tooMany`. Default 20,000,000 (`DEFAULT_MAX_FILTER_WORK`).
   */
  readonly maxFilterWork?: number;
}

/** One tenant's resources: by id, in id order, and the unique keys each holds. */
class TenantResources {
  readonly byId = new Map<string, ScimResource>();
  readonly order = new SortedIds();
  /** Attribute name → unique key → the id of the resource that holds it. */
  readonly owners = new Map<string, Map<string, string>>();
  /** The unique keys each resource holds, to release them on replace and delete. */
  readonly keysOf = new Map<string, UniqueKeys>();

  /** Throws 409 `uniqueness` when a resource other than `id` holds one of `keys`. */
  checkUnique(id: string, keys: UniqueKeys): void {
    for (const [name, key] of Object.entries(keys)) {
      const owner = this.owners.get(name)?.get(key);
      if (owner !== undefined && owner !== id)
        throw scimErrors.uniqueness(`"${name}" ${previewJson(key)} is already taken.`);
    }
  }

  /** Records that `id` holds `keys` (and no longer holds the keys it held before). */
  holdKeys(id: string, keys: UniqueKeys | undefined): void {
    for (const [name, key] of Object.entries(this.keysOf.get(id) ?? {})) {
      const owners = this.owners.get(name);
      if (owners?.get(key) === id) owners.delete(key);
    }
    if (keys === undefined) {
      this.keysOf.delete(id);
      return;
    }
    this.keysOf.set(id, keys);
    for (const [name, key] of Object.entries(keys)) {
      let owners = this.owners.get(name);
      if (!owners) this.owners.set(name, (owners = new Map()));
      owners.set(key, id);
    }
  }
}

/**
 * Keeps the resources of one resource type a host registers in memory (`createScim`'s
 * `resourceTypes`), per tenant: deep-frozen copies by id, ids in order (a page without a
 * filter or sort is a slice), every filter through scimkit's filter engine and every sort,
 * unique keys in an index, keyset pages for RFC 9865 cursors. A resource type needs one store
 * of its own. Made for prototypes,
 * tests and small data: a filter or a sort reads every resource of the tenant; a production
 * host brings a store of its own (see `ResourceStore` and docs/resource-types.md).
 *
 * @example
 * ```ts
 * import { MemoryResourceStore, MemoryUserStore } from 'scimkit/memory';
 *
 * createScim({
 *   store: new MemoryUserStore(), verifier, mailer,
 *   resourceTypes: [{ name: 'Class', endpoint: '/Classes', schema: classSchema, store: new MemoryResourceStore() }],
 * });
 * ```
 */
export class MemoryResourceStore implements ResourceStore {
  readonly #tenants = new Map<string, TenantResources>();
  readonly #maxFilterWork: number;

  /** @throws ScimConfigError when `maxFilterWork` is not a number > 0. */
  constructor(options: MemoryResourceStoreOptions = {}) {
    this.#maxFilterWork = checkMaxFilterWork('MemoryResourceStore', options.maxFilterWork);
  }

  /** Every filter (the filter engine over the resources), every sort, and keyset paging. */
  readonly capabilities: StoreCapabilities = { supportsSort: () => true, keysetPaging: true };

  /** Stores a new resource; throws 409 `uniqueness` when another holds one of its unique keys. */
  async create(tenant: string, resource: ScimResource, options: ResourceCreateOptions) {
    let resources = this.#tenants.get(tenant);
    if (!resources) this.#tenants.set(tenant, (resources = new TenantResources()));
    if (resources.byId.has(resource.id))
      throw new Error(`MemoryResourceStore: id "${resource.id}" already exists.`);
    resources.checkUnique(resource.id, options.uniqueKeys);
    resources.byId.set(resource.id, frozenCopy(resource));
    resources.order.insert(resource.id);
    resources.holdKeys(resource.id, options.uniqueKeys);
  }

  /** Reads a resource of the tenant, or `null`. */
  async get(tenant: string, id: string): Promise<ScimResource | null> {
    return this.#tenants.get(tenant)?.byId.get(id) ?? null;
  }

  /** Replaces a resource at `expectedVersion` (412 when stale); `false` when it is gone. */
  async replace(
    tenant: string,
    resource: ScimResource,
    options: ResourceReplaceOptions,
  ): Promise<boolean> {
    const resources = this.#tenants.get(tenant);
    const stored = resources?.byId.get(resource.id);
    if (!resources || !stored) return false;
    if (stored.meta.version !== options.expectedVersion) throw scimErrors.versionConflict();
    resources.checkUnique(resource.id, options.uniqueKeys);
    resources.byId.set(resource.id, frozenCopy(resource));
    resources.holdKeys(resource.id, options.uniqueKeys);
    return true;
  }

  /** Deletes a resource (at `expectedVersion` when given); `false` when it is gone. */
  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    const resources = this.#tenants.get(tenant);
    const stored = resources?.byId.get(id);
    if (!resources || !stored) return false;
    const expected = options?.expectedVersion;
    if (expected !== undefined && stored.meta.version !== expected)
      throw scimErrors.versionConflict();
    resources.byId.delete(id);
    resources.order.remove(id);
    resources.holdKeys(id, undefined);
    return true;
  }

  /** Answers a page query: the filter engine over the tenant's resources, any sort, keyset pages. */
  async list(tenant: string, query: ResourceListQuery): Promise<ResourceListResult> {
    const resources = this.#tenants.get(tenant);
    if (!resources) return { totalResults: 0, resources: [] };
    const offset = Math.max(0, query.startIndex - 1);
    const count = Math.max(0, query.count);
    const { filter, sortBy, seek, resourceType: type } = query;
    const byId = (id: string) => resources.byId.get(id) as ScimResource;
    if (!filter && !sortBy) {
      if (seek) return idOrderPage(resources.order, query, placesOf(query, type), byId);
      const page = resources.order.slice(offset, count).map(byId);
      return { totalResults: resources.order.size, resources: page };
    }
    const meter = filterWorkMeter(this.#maxFilterWork);
    meter.spend(resources.order.size * WORK_COSTS.visit);
    const ordered = [...resources.order.values()].map(byId);
    const test = filter && compileFilter(filter, type, meter);
    const found = test ? ordered.filter((r) => test(r as Record<string, unknown>)) : ordered;
    // A stable sort of resources in id order: ties stay by id.
    if (sortBy) found.sort(compileSort(sortBy, query.sortOrder ?? 'ascending', type, meter));
    if (seek) return seekPage(found, query, placesOf(query, type));
    return { totalResults: found.length, resources: found.slice(offset, offset + count) };
  }
}
