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
import type { EventLog } from '../../contracts/event-log.js';
import { ScimConfigError, scimErrors } from '../../errors/index.js';
import { checkMaxFilterWork } from './check-max-filter-work.js';
import { previewJson } from '../../json/preview-json.js';
import { frozenCopy } from './clone-json.js';
import { MemoryEventLog } from './memory-event-log.js';
import { MemoryTable, TenantTable } from './tenant-table.js';

/** Options of {@link MemoryResourceStore}. */
export interface MemoryResourceStoreOptions {
  /**
   * The most work units one list request may spend evaluating its filter and `sortBy` over
   * the tenant's resources (see `MemoryUserStoreOptions.maxFilterWork`); past it the request
   * answers 400 `tooMany`. Default 20,000,000 (`DEFAULT_MAX_FILTER_WORK`).
   */
  readonly maxFilterWork?: number;
  /**
   * The event log the store records its writes' events in: the `events` of the
   * `MemoryUserStore` served beside it, so one log holds every type's events. Omitted: the
   * store records none.
   */
  readonly events?: EventLog | undefined;
}

/** One tenant's resources: the table, and the unique keys each holds. */
class TenantResources extends TenantTable<ScimResource> {
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

  /** Removes a stored resource and releases its keys. */
  override remove(resource: ScimResource): void {
    super.remove(resource);
    this.holdKeys(resource.id, undefined);
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
  readonly #resources: MemoryTable<ScimResource, TenantResources>;
  readonly #log: MemoryEventLog | undefined;
  /** The log the store records its events in (`options.events`), if any. */
  readonly events?: EventLog;

  /**
   * @throws ScimConfigError when `maxFilterWork` is not a number > 0, or `events` is not a
   *   memory store's event log (another log cannot be written in the same step).
   */
  constructor(options: MemoryResourceStoreOptions = {}) {
    const maxFilterWork = checkMaxFilterWork('MemoryResourceStore', options.maxFilterWork);
    this.#resources = new MemoryTable(() => new TenantResources(), maxFilterWork);
    const log = options.events;
    if (log !== undefined && !(log instanceof MemoryEventLog))
      throw new ScimConfigError(
        'MemoryResourceStore: `events` must be the `events` of a MemoryUserStore.',
      );
    this.#log = log;
    if (log) this.events = log;
  }

  /** Every filter (the filter engine over the resources), every sort, and keyset paging. */
  readonly capabilities: StoreCapabilities = { supportsSort: () => true, keysetPaging: true };

  /** Stores a new resource; throws 409 `uniqueness` when another holds one of its unique keys. */
  async create(tenant: string, resource: ScimResource, options: ResourceCreateOptions) {
    const resources = this.#resources.for(tenant);
    if (resources.byId.has(resource.id))
      throw new Error(`MemoryResourceStore: id "${resource.id}" already exists.`);
    resources.checkUnique(resource.id, options.uniqueKeys);
    const stored = frozenCopy(resource);
    resources.add(stored);
    resources.holdKeys(resource.id, options.uniqueKeys);
    this.#log?.record(options.events, resource, stored);
  }

  /** Reads a resource of the tenant, or `null`. */
  async get(tenant: string, id: string): Promise<ScimResource | null> {
    return this.#resources.get(tenant, id);
  }

  /** Replaces a resource at `expectedVersion` (412 when stale); `false` when it is gone. */
  async replace(
    tenant: string,
    resource: ScimResource,
    options: ResourceReplaceOptions,
  ): Promise<boolean> {
    const found = this.#resources.find(tenant, resource.id, options.expectedVersion);
    if (!found) return false;
    const [resources] = found;
    resources.checkUnique(resource.id, options.uniqueKeys);
    const stored = frozenCopy(resource);
    resources.byId.set(resource.id, stored);
    resources.holdKeys(resource.id, options.uniqueKeys);
    this.#log?.record(options.events, resource, stored);
    return true;
  }

  /** Deletes a resource (at `expectedVersion` when given); `false` when it is gone. */
  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    if (!this.#resources.delete(tenant, id, options?.expectedVersion)) return false;
    this.#log?.record(options?.events);
    return true;
  }

  /** Answers a page query: the filter engine over the tenant's resources, any sort, keyset pages. */
  async list(tenant: string, query: ResourceListQuery): Promise<ResourceListResult> {
    return this.#resources.list(tenant, query, query.resourceType);
  }
}
