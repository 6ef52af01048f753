import type { ResourceMeta, ScimResource } from '../../contracts/resource-store.js';
import { setMember } from '../../json/json-value.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { FIRST_VERSION, nextVersion } from '../../schema/version.js';

/**
 * Assembles a stored resource (a group, a host resource), frozen, laid out as every resource the
 * core writes: `schemas` (from the values it holds), `id`, the attributes in their order, `meta`
 * last. `kept` names an attribute a store keeps apart (a group's `members`), left out.
 */
export function assembleResource(
  id: string,
  attributes: Readonly<Record<string, unknown>>,
  meta: ResourceMeta,
  type: CompiledResourceType,
  kept?: string,
): ScimResource {
  const resource: Record<string, unknown> = { schemas: type.schemasOf(attributes), id };
  for (const key in attributes) {
    if (key === 'id' || key === 'meta' || key === 'schemas' || key === kept) continue;
    setMember(resource, key, attributes[key]);
  }
  resource.meta = meta;
  return Object.freeze(resource) as ScimResource;
}

/** Returns the `meta` of a new resource of the type `resourceType` created at `now`, frozen. */
export function firstResourceMeta<T extends string>(
  resourceType: T,
  now: string,
): ResourceMeta & { readonly resourceType: T } {
  return Object.freeze({ resourceType, created: now, lastModified: now, version: FIRST_VERSION });
}

/** Returns the `meta` of the version after `meta`, written at `now`, frozen. */
export function nextResourceMeta<M extends ResourceMeta>(meta: M, now: string): M {
  return Object.freeze({ ...meta, lastModified: now, version: nextVersion(meta.version) });
}
