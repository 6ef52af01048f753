import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { StoredResource } from '../handlers/resource-endpoint.js';

type Present = (resource: StoredResource) => StoredResource;

/**
 * The `present` step of a host resource type whose schemas have attributes `returned: never`
 * (RFC 7643 §7, such as a writeOnly PIN): responses show the resource without them, whatever
 * the projection; undefined when the type has none. The store keeps them, and the host reads
 * them there. (The User's `password` is never stored, so the User needs no such step.)
 */
export function hideNeverReturned(type: CompiledResourceType): Present | undefined {
  const hidden = (schema: (typeof type.schemas)[number]) =>
    schema.attributes.filter((a) => a.returned === 'never').map((a) => a.name);
  const top = hidden(type.core);
  const nested = type.extensions
    .map((extension) => [extension.id, hidden(extension)] as const)
    .filter(([, names]) => names.length > 0);
  if (top.length === 0 && nested.length === 0) return undefined;
  const without = (values: Readonly<Record<string, unknown>>, names: readonly string[]) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      if (!names.some((name) => name.toLowerCase() === key.toLowerCase())) out[key] = value;
    }
    return out;
  };
  return (resource) => {
    const out = without(resource as unknown as Record<string, unknown>, top);
    for (const [id, names] of nested) {
      const values = out[id];
      if (typeof values === 'object' && values !== null)
        out[id] = without(values as Record<string, unknown>, names);
    }
    return out as unknown as StoredResource;
  };
}
