import { RESPONSE_CONTENT_TYPE } from '../http/media-type.js';
import {
  compileProjection,
  splitAttributeList,
  type Projection,
  type Projector,
} from '../../schema/project-resource.js';
import { queryParams } from '../http/query-params.js';
import { servedJson, withLocation } from '../http/response-json.js';
import type { ScimResponse } from '../types.js';
import {
  isBudgetRefusal,
  keepWhole,
  type ResponseAllowance,
} from '../budget/response-allowance.js';
import { isBulkOperation, type BulkOperationResponse, type ResourceContext } from './context.js';
import type { StoredResource } from './resource-endpoint.js';

/**
 * The resources of a response with what the store does not keep (see `expand`): the type's
 * `expand` itself, with no async step of its own around it.
 */
export function expanded(
  resources: readonly StoredResource[],
  context: Pick<ResourceContext, 'endpoint' | 'tenant' | 'baseUrl'>,
  project: Projector | undefined,
  allowance: ResponseAllowance,
): Promise<readonly StoredResource[]> {
  const { expand } = context.endpoint;
  if (expand === undefined) return Promise.resolve(resources);
  return expand(context.tenant.id, resources, project, context.baseUrl, allowance);
}

/** A resource as the request sees it: with what depends on the base URL (see `present`). */
export function presented(
  resource: StoredResource,
  context: Pick<ResourceContext, 'endpoint' | 'baseUrl'>,
): StoredResource {
  const { present } = context.endpoint;
  return present ? present(resource, context.baseUrl) : resource;
}

/**
 * Serialises one resource of a response, shaped by the request's projection, with its
 * `meta.location`. A read's text is kept for the next read (see `servedJson`); a write's
 * answer shows its version once, and is serialised plainly: a copy of the resource and its
 * `meta` costs less than splicing the location into the text, which copies the text twice.
 */
export function resourceJson(
  resource: StoredResource,
  context: ResourceContext,
  project: Projector | undefined,
  read = false,
): string {
  const shown = presented(resource, context);
  if (read && !project) return servedJson(shown, context.url);
  const located = withLocation(shown, context.url);
  return JSON.stringify(project ? project(located as unknown as Record<string, unknown>) : located);
}

/**
 * Answers with one resource, its `ETag` and, for a creation, its `Location`, shaped by the
 * request's `attributes` / `excludedAttributes`. `read`: the answer to a read, whose text is
 * kept for the next one (see `resourceJson`).
 *
 * @see RFC 7644 §3.9
 */
export async function resourceResponse(
  status: 200 | 201,
  stored: StoredResource,
  context: ResourceContext,
  project: Projector | undefined,
  read = false,
): Promise<ScimResponse> {
  const headers: Record<string, string> = {
    'content-type': RESPONSE_CONTENT_TYPE,
    etag: stored.meta.version,
  };
  if (status === 201) headers.location = `${context.url}/${stored.id}`;
  // A /Bulk operation's answer is its status, headers and the resource as a value: the
  // BulkResponse shows no resource, so none is expanded or serialised.
  if (isBulkOperation(context.request)) {
    const answer: BulkOperationResponse = { status, headers, body: undefined, resource: stored };
    return answer;
  }
  // The text is built, measured against the answer's budget, and the room given back at once:
  // from here the adapter holds it.
  const allowance = context.config.responses.open();
  try {
    const shown = await expanded([stored], context, project, allowance);
    const body = resourceJson(shown[0] as StoredResource, context, project, read);
    keepWhole(allowance, body);
    return { status, headers, body };
  } catch (error) {
    // A write has happened: an answer too large for the budget is sent without its body (RFC
    // 7644 §3.5.2 lets a PATCH answer 204; the ETag and Location name what was written), never
    // refused. A read is refused (see `keepWhole`).
    if (read || !isBudgetRefusal(error)) throw error;
    return { status: status === 201 ? 201 : 204, headers, body: undefined };
  } finally {
    allowance.close();
  }
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
