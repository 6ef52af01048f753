import { etagMatches } from '../http/etag.js';
import { getHeader } from '../http/headers.js';
import { emptyResponse } from '../http/respond.js';
import type { ResourceHandler } from './context.js';
import { readProjection, resourceResponse } from './resource-response.js';

/**
 * GET of one resource (`/Users/{id}`, `/Groups/{id}`): 200 with the resource, 304 when
 * `If-None-Match` names its version, 404.
 *
 * @see RFC 7644 §3.4.1, §3.14
 */
export const getResource: ResourceHandler = async (context) => {
  const { request, tenant, id, endpoint } = context;
  const { project, shown } = readProjection(context);
  const resource = await endpoint.service.get(tenant.id, id, shown);
  const ifNoneMatch = getHeader(request.headers, 'if-none-match');
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, resource.meta.version)) {
    return emptyResponse(304, { etag: resource.meta.version });
  }
  return resourceResponse(200, resource, context, project, true);
};
