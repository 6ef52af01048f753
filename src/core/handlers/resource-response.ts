import { RESPONSE_CONTENT_TYPE } from '../http/media-type.js';
import {
  compileProjection,
  splitAttributeList,
  type Projection,
  type Projector,
} from '../../schema/project-resource.js';
import { queryParams } from '../http/query-params.js';
import type { ScimResponse } from '../types.js';
import { isBulkOperation, type ResourceContext } from './context.js';
import type { StoredResource } from './resource-endpoint.js';

/** Returns a resource with the request-dependent `meta.location` added, leaving it as it is. */
export function withLocation<R extends StoredResource>(resource: R, url: string): R {
  return { ...resource, meta: { ...resource.meta, location: `${url}/${resource.id}` } };
}

/**
 * Serialises a resource with its request-dependent `meta.location`, as
 * `JSON.stringify(withLocation(resource, url))` does. When `meta` is the resource's last
 * member, as in every resource the core builds, the location is written into the text instead
 * of into a copy: no object is copied to answer a read.
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

/**
 * The resources of a response with what the store does not keep (see `expand`); the same
 * list, without a promise turn of its own, when the type adds nothing.
 */
export function expanded(
  resources: readonly StoredResource[],
  context: ResourceContext,
  project: Projector | undefined,
): readonly StoredResource[] | Promise<readonly StoredResource[]> {
  const { expand } = context.endpoint;
  return expand ? expand(context.tenant.id, resources, project, context.baseUrl) : resources;
}

/** A resource as the request sees it: with what depends on the base URL (see `present`). */
export function presented(resource: StoredResource, context: ResourceContext): StoredResource {
  const { present } = context.endpoint;
  return present ? present(resource, context.baseUrl) : resource;
}

/**
 * Serialises one resource of a response, shaped by the request's projection, with its
 * `meta.location`.
 */
export function resourceJson(
  resource: StoredResource,
  context: ResourceContext,
  project: Projector | undefined,
): string {
  const shown = presented(resource, context);
  return project
    ? JSON.stringify(
        project(withLocation(shown, context.url) as unknown as Record<string, unknown>),
      )
    : locatedJson(shown, context.url);
}

/**
 * Answers with one resource, its `ETag` and, for a creation, its `Location`, shaped by the
 * request's `attributes` / `excludedAttributes`.
 *
 * @see RFC 7644 §3.9
 */
export async function resourceResponse(
  status: 200 | 201,
  stored: StoredResource,
  context: ResourceContext,
  project: Projector | undefined,
): Promise<ScimResponse> {
  const headers: Record<string, string> = {
    'content-type': RESPONSE_CONTENT_TYPE,
    etag: stored.meta.version,
  };
  if (status === 201) headers.location = `${context.url}/${stored.id}`;
  // A /Bulk operation's answer is its status and headers: the BulkResponse shows no resource.
  if (isBulkOperation(context.request)) return { status, headers, body: undefined };
  const [resource] = (await expanded([stored], context, project)) as [StoredResource];
  return { status, headers, body: resourceJson(resource, context, project) };
}

/** A request's projection: the lists as sent, and the function that applies them. */
export interface RequestProjection {
  /** `attributes` / `excludedAttributes` as sent (empty lists when absent). */
  readonly shown: Projection;
  /** Shapes a resource of the response; `undefined` when the request asks for no projection. */
  readonly project: Projector | undefined;
}

const NO_PROJECTION: RequestProjection = Object.freeze({
  shown: Object.freeze({}),
  project: undefined,
});

/**
 * Reads the request's `attributes` / `excludedAttributes`. Writes call it before they change
 * anything, so a bad projection (both lists) is refused with nothing written.
 *
 * @throws ScimError 400 `invalidValue` when both lists are given.
 */
export function readProjection({ request, endpoint }: ResourceContext): RequestProjection {
  if (request.query === undefined || request.query === '') return NO_PROJECTION;
  const params = queryParams(request.query);
  const shown = {
    attributes: splitAttributeList(params.get('attributes')),
    excludedAttributes: splitAttributeList(params.get('excludedAttributes')),
  };
  return { shown, project: compileProjection(shown, endpoint.type) };
}
