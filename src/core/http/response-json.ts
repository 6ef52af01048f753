import type { Projector } from '../../schema/project-resource.js';
import type { StoredResource } from '../handlers/resource-endpoint.js';

/*
 * The serialiser of resource responses: the one place where a response body is written by
 * anything but a plain `JSON.stringify` of the object it shows (issue 16, "speed behind a
 * named seam"). Every function here is held, by the property tests of
 * test/core/response-json.test.ts, to the plain serialisation of the plain object it names.
 * What it buys is in bench/RESULTS.md ("Issue 16 part 2"). Error, discovery and bulk bodies
 * are plain `JSON.stringify` (`jsonResponse` in respond.ts).
 */

/** Returns a resource with the request-dependent `meta.location` added, leaving it as it is. */
export function withLocation<R extends StoredResource>(resource: R, url: string): R {
  return { ...resource, meta: { ...resource.meta, location: `${url}/${resource.id}` } };
}

/**
 * Serialises a resource with its request-dependent `meta.location`: the same text as
 * `JSON.stringify(withLocation(resource, url))`. When `meta` is the resource's last member, as
 * in every resource the core builds, the location is written into the text instead of into a
 * copy: no object is copied to answer a read.
 */
export function locatedJson(resource: StoredResource, url: string): string {
  const { meta } = resource;
  const plain = !hasToJson(resource) && !hasToJson(meta);
  if (!plain || meta.location !== undefined || lastKey(resource) !== 'meta')
    return JSON.stringify(withLocation(resource, url));
  const json = JSON.stringify(resource);
  // `{...,"meta":{...}}`: the location goes in before meta's closing brace.
  const head = json.slice(0, -2);
  const separator = head.endsWith('{') ? '' : ',';
  return `${head}${separator}"location":${JSON.stringify(`${url}/${resource.id}`)}}}`;
}

/**
 * Serialises a list response: the same text as `JSON.stringify({ ...page, Resources })`, with
 * `Resources` each resource with its `meta.location` (see {@link withLocation}), shaped by
 * `project` when the request asks for a projection. A page of one without projection, the
 * answer to the userName probe every IdP sends, is written around the resource's own text
 * (see {@link locatedJson}); a longer page takes one copy per resource and one serialisation
 * (serialising each resource on its own and joining the texts measured no cheaper).
 *
 * @param page - every member but `Resources`; it must not have one.
 */
export function listResponseJson(
  page: object,
  resources: readonly StoredResource[],
  url: string,
  project: Projector | undefined,
): string {
  const [only] = resources;
  if (!project && resources.length === 1 && only !== undefined) {
    const head = JSON.stringify(page);
    const separator = head === '{}' ? '' : ',';
    return `${head.slice(0, -1)}${separator}"Resources":[${locatedJson(only, url)}]}`;
  }
  // Stores may hand out shared, read-only resources: the location goes on a copy.
  const located = resources.map((r) => withLocation(r, url));
  return JSON.stringify({
    ...page,
    Resources: project
      ? located.map((r) => project(r as unknown as Record<string, unknown>))
      : located,
  });
}

// A toJSON method would serialise the object its own way: leave such objects to JSON.stringify.
function hasToJson(value: object): boolean {
  return (value as { toJSON?: unknown }).toJSON !== undefined;
}

// The last enumerable key `for...in` visits, as JSON.stringify orders members; no array built.
function lastKey(value: object): string | undefined {
  let last: string | undefined;
  for (const key in value) last = key;
  return last;
}
