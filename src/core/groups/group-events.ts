import type { ScimGroup } from '../../schema/group-schema.js';
import type { ScimEvent } from '../events/types.js';
import { changedAttributes } from '../resources/events.js';
import type { GroupWritten } from './group-write.js';

// Members the core keeps by itself, and the member list: a change to them alone is not a
// `group.updated` (membership has events of its own).
const BOOKKEEPING: ReadonlySet<string> = new Set(['meta', 'schemas', 'members']);

/**
 * Lists the lifecycle events of one committed group write: `group.deleted` for a deletion
 * (`done` null); `group.created` for a creation (`before` null); `group.updated` when an attribute other than the members changed (its names
 * in `changed`; `before` and `after` without members); then one `group.member_added` or
 * `group.member_removed` per membership the store reports changed.
 */
export function groupEvents(
  tenant: string,
  at: string,
  id: string,
  before: ScimGroup | null,
  done: GroupWritten | null,
): ScimEvent[] {
  if (done === null) return [{ type: 'group.deleted', tenant, at, id }];
  const events: ScimEvent[] = [];
  if (before === null) events.push({ type: 'group.created', tenant, at, group: done.group });
  else if (done.renamed) {
    const changed = changedAttributes(before, done.group, BOOKKEEPING);
    if (changed.length > 0)
      events.push({ type: 'group.updated', tenant, at, before, after: done.group, changed });
  }
  for (const member of done.removed)
    events.push({ type: 'group.member_removed', tenant, at, groupId: id, member });
  for (const member of done.added)
    events.push({ type: 'group.member_added', tenant, at, groupId: id, member });
  return events;
}
