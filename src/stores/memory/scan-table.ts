import type { StoredResource } from '../../contracts/type-store.js';
import { WORK_COSTS, type WorkMeter } from '../../filter/work-meter.js';

/**
 * Collects, in id order, every resource of a tenant's table that satisfies `predicate`. This
 * is the one place the memory stores visit all resources; index lookups and unfiltered pages
 * never reach it (a test spies on it to prove so).
 *
 * It walks the id → resource map in insertion order, several times faster than looking up
 * each id of the id order, and sorts only the matches, and only when creation order was not
 * id order. Each resource visited is charged to `meter` before it is tested.
 *
 * @internal
 */
export function scanTable<R extends StoredResource>(
  table: { readonly byId: ReadonlyMap<string, R> },
  predicate: (resource: R) => boolean,
  meter: WorkMeter,
): R[] {
  const found: R[] = [];
  let ordered = true;
  let lastId = '';
  for (const resource of table.byId.values()) {
    meter.spend(WORK_COSTS.visit);
    if (!predicate(resource)) continue;
    if (resource.id < lastId) ordered = false;
    lastId = resource.id;
    found.push(resource);
  }
  if (!ordered) found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return found;
}
