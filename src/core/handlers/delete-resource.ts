import { getHeader } from '../http/headers.js';
import { emptyResponse } from '../http/respond.js';
import type { ResourceHandler } from './context.js';

/**
 * DELETE of a resource (`/Users/{id}`, `/Groups/{id}`): 204, then the id answers 404.
 *
 * @see RFC 7644 §3.6
 */
export const deleteResource: ResourceHandler = async ({ request, tenant, id, endpoint }) => {
  await endpoint.service.delete(tenant.id, id, getHeader(request.headers, 'if-match'));
  return emptyResponse(204);
};
