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
 * Serialises a list response from its members and its resources already serialised: the same
 * text as `JSON.stringify({ ...page, Resources })` with `Resources` the parsed `resources`. A
 * page is written around its resources' texts, so no resource is copied to take its location.
 *
 * @param page - every member but `Resources`; it must not have one.
 * @param resources - each resource of the page as JSON text.
 */
export function listResponseJson(page: object, resources: readonly string[]): string {
  const head = JSON.stringify(page);
  const separator = head === '{}' ? '' : ',';
  return `${head.slice(0, -1)}${separator}"Resources":[${resources.join(',')}]}`;
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
