import type { ListQuery, StorePage } from '../../contracts/store-query.js';
import type { StoredResource } from '../../contracts/type-store.js';
import { scimErrors } from '../../errors/index.js';
import type { Filter } from '../../filter/ast.js';
import { compileFilter, compileSort } from '../../filter/index.js';
import { filterWorkMeter } from '../../filter/filter-work-meter.js';
import type { WorkMeter } from '../../filter/work-meter.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { scanTable } from './scan-table.js';
import { idOrderPage, placesOf, seekPage } from './seek-page.js';
import { SortedIds } from './sorted-ids.js';

/**
 * Holds one tenant's resources of one type: by id, and every id in order (a page is a slice).
 * A type's own indexes (the users' userName, the groups' memberships, a host type's unique
 * keys) extend it and keep themselves in step through `add` and `remove`.
 *
 * @internal
 */
export class TenantTable<R extends StoredResource> {
  /** id → the stored resource, deeply frozen (handed out as it is: nobody can change it). */
  readonly byId = new Map<string, R>();
  /** Every id, ascending. */
  readonly order = new SortedIds();

  /** Stores a resource that is not stored yet. */
  add(resource: R): void {
    this.byId.set(resource.id, resource);
    this.order.insert(resource.id);
  }

  /** Removes a stored resource. */
  remove(resource: R): void {
    this.byId.delete(resource.id);
    this.order.remove(resource.id);
  }
}

/** Returns the resources matching a filter in id order, each one tested charged to `meter`. */
export type Matching<R> = (filter: Filter, meter: WorkMeter) => R[];

/**
 * Every tenant's {@link TenantTable} of one resource type, and the skeleton the memory stores
 * share: find a resource at its version, delete it, and answer a page (a slice of the id order
 * when nothing is filtered or sorted, else the matches in the query's order, by offset or by
 * keyset), within the work budget of one list request.
 *
 * @internal
 */
export class MemoryTable<R extends StoredResource, T extends TenantTable<R>> {
  readonly #tenants = new Map<string, T>();

  /**
   * @param newTenant - Makes an empty tenant table.
   * @param maxFilterWork - The work budget of one list request's filter and sort.
   */
  constructor(
    private readonly newTenant: () => T,
    private readonly maxFilterWork: number,
  ) {}

  /** Returns the tenant's table, or `undefined` when it has never stored anything. */
  of(tenant: string): T | undefined {
    return this.#tenants.get(tenant);
  }

  /** Returns the tenant's table, made empty when it has none yet. */
  for(tenant: string): T {
    let table = this.#tenants.get(tenant);
    if (!table) this.#tenants.set(tenant, (table = this.newTenant()));
    return table;
  }

  /** Returns the stored resource (deeply frozen, so shared safely), or `null`. */
  get(tenant: string, id: string): R | null {
    return this.#tenants.get(tenant)?.byId.get(id) ?? null;
  }

  /**
   * Finds a stored resource and its table; `undefined` when the tenant has none with this id.
   * Throws `versionConflict` when `expectedVersion` is given and is not the stored version.
   */
  find(tenant: string, id: string, expectedVersion?: string): [T, R] | undefined {
    const table = this.#tenants.get(tenant);
    const stored = table?.byId.get(id);
    if (!table || !stored) return undefined;
    if (expectedVersion !== undefined && stored.meta.version !== expectedVersion)
      throw scimErrors.versionConflict();
    return [table, stored];
  }

  /** Deletes a resource (at `expectedVersion`, when given); `false` when there is none. */
  delete(tenant: string, id: string, expectedVersion?: string): boolean {
    const found = this.find(tenant, id, expectedVersion);
    if (!found) return false;
    found[0].remove(found[1]);
    return true;
  }

  /**
   * Answers a page query of the tenant's resources. `matching` answers a filter from the
   * type's indexes when it can (default: the filter engine over every resource).
   */
  list(
    tenant: string,
    query: ListQuery,
    type: CompiledResourceType,
    matching?: (table: T) => Matching<R>,
  ): StorePage<R> {
    const table = this.#tenants.get(tenant);
    if (!table)
      return { totalResults: 0, resources: [], ...(query.seek && { seek: { more: false } }) };
    const offset = Math.max(0, query.startIndex - 1);
    const count = Math.max(0, query.count);
    const { filter, sortBy, seek } = query;
    const byId = (id: string) => table.byId.get(id) as R;
    if (!filter && !sortBy) {
      // By rank in the id order: a deep page costs what the first one does.
      if (seek) return idOrderPage(table.order, query, placesOf(query, type), byId);
      return {
        totalResults: table.order.size,
        resources: table.order.slice(offset, count).map(byId),
      };
    }
    const meter = filterWorkMeter(this.maxFilterWork);
    let found: R[];
    if (!filter) found = scanTable(table, () => true, meter);
    else if (matching) found = matching(table)(filter, meter);
    else {
      const test = compileFilter(filter, type, meter);
      found = scanTable(table, (r) => test(r as unknown as Record<string, unknown>), meter);
    }
    // Sorting by an arbitrary attribute has no index: it orders every match (O(m log m)).
    if (sortBy) {
      const compare = compileSort(sortBy, query.sortOrder ?? 'ascending', type, meter);
      // Every stored resource is a JSON object, which the comparator reads by attribute name.
      found.sort(compare as unknown as (a: R, b: R) => number);
    }
    if (seek) return seekPage(found, query, placesOf(query, type));
    return { totalResults: found.length, resources: found.slice(offset, offset + count) };
  }
}
