import { setMember } from '../../json/json-value.js';
import type { GroupMember, GroupMeta, ScimGroup } from '../../schema/group-schema.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { FIRST_VERSION, nextVersion } from '../../schema/version.js';

/**
 * Assembles a stored group, frozen, laid out as every group the core writes: `schemas`, `id`,
 * the attributes in their order (never `members`: a store keeps them apart), `meta` last.
 */
export function assembleGroup(
  id: string,
  attributes: Readonly<Record<string, unknown>>,
  meta: GroupMeta,
  type: CompiledResourceType,
): ScimGroup {
  const group: Record<string, unknown> = { schemas: type.schemasOf(attributes), id };
  for (const key in attributes) {
    if (key === 'id' || key === 'meta' || key === 'schemas' || key === 'members') continue;
    setMember(group, key, attributes[key]);
  }
  group.meta = meta;
  return Object.freeze(group) as unknown as ScimGroup;
}

/** Returns the `meta` of a new group created at `now`, frozen. */
export function firstGroupMeta(now: string): GroupMeta {
  return Object.freeze({
    resourceType: 'Group',
    created: now,
    lastModified: now,
    version: FIRST_VERSION,
  });
}

/** Returns the `meta` of the version after `meta`, written at `now`, frozen. */
export function nextGroupMeta(meta: GroupMeta, now: string): GroupMeta {
  return Object.freeze({ ...meta, lastModified: now, version: nextVersion(meta.version) });
}

/**
 * Adds what depends on the request's base URL to a group's members: each member's `$ref`, the
 * URL of the user or group it is. `meta` stays last.
 */
export function presentGroup(group: ScimGroup, baseUrl: string): ScimGroup {
  const { members, meta, ...rest } = group;
  if (members === undefined) return group;
  const located = members.map((m: GroupMember) => ({
    value: m.value,
    $ref: `${baseUrl}/${m.type === 'Group' ? 'Groups' : 'Users'}/${encodeURIComponent(m.value)}`,
    ...(m.display === undefined ? {} : { display: m.display }),
    type: m.type,
  }));
  return { ...rest, members: located as unknown as GroupMember[], meta } as ScimGroup;
}
