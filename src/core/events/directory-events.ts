import type {
  DirectoryEvent,
  DirectoryEventData,
  DirectoryEventType,
} from '../../contracts/event-log.js';
import { newId } from '../resources/new-id.js';
import type { ScimEvent } from './types.js';

type Resource = Readonly<Record<string, unknown>> & { readonly id: string };

/**
 * Turns the lifecycle events of one write (as `scim.on` hears them) into the directory events
 * the store's log records: one rule of what a write means, two shapes. `resourceType` is the
 * type's name (`User`, `Group`, `Class`); a host type's events are named after it in lower
 * case (`class.created`). `before` is the resource a deletion removed: the event carries it.
 */
export function directoryEvents(
  events: readonly ScimEvent[],
  resourceType: string,
  before: Resource | null,
): DirectoryEvent[] {
  const logged: DirectoryEvent[] = [];
  for (const event of events) {
    const data = dataOf(event, resourceType, before);
    const type = directoryEventType(event.type, resourceType);
    logged.push({ id: newId(), type, tenant: event.tenant, occurredAt: event.at, data });
  }
  return logged;
}

/**
 * The log's name of an in-process event type: a host type's `resource.created` is named after
 * the type in lower case (`class.created`); the User's and the Group's keep theirs.
 */
export function directoryEventType(
  type: ScimEvent['type'],
  resourceType: string,
): DirectoryEventType {
  return (
    type.startsWith('resource.')
      ? `${resourceType.toLowerCase()}${type.slice('resource'.length)}`
      : type
  ) as DirectoryEventType;
}

function dataOf(
  event: ScimEvent,
  resourceType: string,
  before: Resource | null,
): DirectoryEventData {
  switch (event.type) {
    case 'user.created':
    case 'user.deactivated':
    case 'user.reactivated':
    case 'user.activated':
    case 'user.invited':
      return { id: event.user.id, resourceType, resource: event.user };
    case 'group.created':
      return { id: event.group.id, resourceType, resource: event.group };
    case 'resource.created':
      return { id: event.resource.id, resourceType, resource: event.resource };
    case 'user.updated':
    case 'group.updated':
    case 'resource.updated':
      return { id: event.after.id, resourceType, resource: event.after, changed: event.changed };
    case 'user.deleted':
    case 'group.deleted':
    case 'resource.deleted':
      return before === null
        ? { id: event.id, resourceType }
        : { id: event.id, resourceType, resource: before };
    case 'group.member_added':
    case 'group.member_removed': {
      const { groupId, member } = event;
      return {
        id: groupId,
        resourceType,
        groupId,
        userId: member.value,
        ...(member.type === undefined ? {} : { memberType: member.type }),
      };
    }
  }
}
