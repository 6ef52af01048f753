import type { ScimResource } from '../../contracts/resource-store.js';
import type { ScimEvent } from '../events/types.js';
import { changedAttributes } from '../resources/events.js';

// What the core keeps by itself: a change to these alone is not a `resource.updated`.
const BOOKKEEPING: ReadonlySet<string> = new Set(['meta', 'schemas']);

/**
 * Lists the lifecycle events of one committed write of a host resource: `resource.created`
 * (no `before`), `resource.deleted` (no `after`), or `resource.updated` with the names of the
 * attributes that changed (none when only bookkeeping did).
 */
export function resourceEvents(
  tenant: string,
  at: string,
  resourceType: string,
  id: string,
  before: ScimResource | null,
  after: ScimResource | null,
): ScimEvent[] {
  if (after === null) return [{ type: 'resource.deleted', tenant, at, resourceType, id }];
  if (before === null)
    return [{ type: 'resource.created', tenant, at, resourceType, resource: after }];
  const changed = changedAttributes(before, after, BOOKKEEPING);
  if (changed.length === 0) return [];
  return [{ type: 'resource.updated', tenant, at, resourceType, before, after, changed }];
}
