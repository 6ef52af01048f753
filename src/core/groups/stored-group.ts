import type { GroupMember, GroupMeta, ScimGroup } from '../../schema/group-schema.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import {
  assembleResource,
  firstResourceMeta,
  nextResourceMeta,
} from '../resources/stored-resource.js';

/**
 * Assembles a stored group, frozen, laid out as every resource the core writes (see
 * `assembleResource`), never with `members`: a store keeps them apart.
 */
export function assembleGroup(
  id: string,
  attributes: Readonly<Record<string, unknown>>,
  meta: GroupMeta,
  type: CompiledResourceType,
): ScimGroup {
  return assembleResource(id, attributes, meta, type, 'members') as unknown as ScimGroup;
}

/** Returns the `meta` of a new group created at `now`, frozen. */
export function firstGroupMeta(now: string): GroupMeta {
  return firstResourceMeta('Group', now);
}

/** Returns the `meta` of the version after `meta`, written at `now`, frozen. */
export function nextGroupMeta(meta: GroupMeta, now: string): GroupMeta {
  return nextResourceMeta(meta, now);
}

/**
 * Adds what depends on the request's base URL to members: each member's `$ref`, the URL of the
 * user or group it is.
 */
export function presentMembers(members: readonly GroupMember[], baseUrl: string): GroupMember[] {
  return members.map((m) => ({
    value: m.value,
    $ref: `${baseUrl}/${m.type === 'Group' ? 'Groups' : 'Users'}/${encodeURIComponent(m.value)}`,
    ...(m.display === undefined ? {} : { display: m.display }),
    type: m.type,
  })) as unknown as GroupMember[];
}
