import { etagMatches } from '../http/etag.js';
import { getHeader } from '../http/headers.js';
import { emptyResponse } from '../http/respond.js';
import type { Projector } from '../../schema/project-resource.js';
import type { ScimResponse } from '../types.js';
import type { ResourceContext, ResourceHandler } from './context.js';
import type { StoredResource } from './resource-endpoint.js';
import { readProjection, resourceResponse } from './resource-response.js';

/**
 * GET of one resource (`/Users/{id}`, `/Groups/{id}`): 200 with the resource, 304 when
 * `If-None-Match` names its version, 404.
 *
 * @see RFC 7644 §3.4.1, §3.14
 */
// One `then` on the service's read rather than an `async` function: no async frame, await or
// promise resolved with a promise per request, so a GET allocates less. A fault before the read throws, and the request phases answer it.
export const getResource: ResourceHandler = (context) => {
  const { tenant, id, endpoint } = context;
  const { project, shown } = readProjection(context);
  return endpoint.service
    .get(tenant.id, id, shown)
    .then((resource) => answer(resource, context, project));
};

// The answer to a read: 304 when `If-None-Match` names the version, else the resource.
function answer(
  resource: StoredResource,
  context: ResourceContext,
  project: Projector | undefined,
): ScimResponse | Promise<ScimResponse> {
  const ifNoneMatch = getHeader(context.request.headers, 'if-none-match');
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, resource.meta.version)) {
    return emptyResponse(304, { etag: resource.meta.version });
  }
  return resourceResponse(200, resource, context, project, true);
}
