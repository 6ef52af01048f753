import { getHeader } from '../http/headers.js';
import { emptyResponse } from '../http/respond.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { ResourceHandler } from './context.js';
import { readProjection, resourceResponse } from './resource-response.js';

/**
 * PATCH of a resource (`/Users/{id}`, `/Groups/{id}`): applies a PatchOp message, all
 * operations or none; attributes not named stay as they are. A PATCH that changes nothing
 * succeeds without a write. A type that says so (`patchAnswersNoContent`, the Group) answers
 * 204 with the `ETag` unless the request asks for attributes.
 *
 * @see RFC 7644 §3.5.2
 */
export const patchResource: ResourceHandler = async (context) => {
  const { request, tenant, id, endpoint, config } = context;
  const { project, shown } = readProjection(context);
  const body = readJsonBody(request, config.maxBodyBytes);
  const ifMatch = getHeader(request.headers, 'if-match');
  const quiet = endpoint.patchAnswersNoContent === true && project === undefined;
  const resource = await endpoint.service.patch(
    tenant.id,
    id,
    ifMatch,
    body,
    quiet ? undefined : shown,
  );
  if (quiet) return emptyResponse(204, { etag: resource.meta.version });
  return resourceResponse(200, resource, context, project);
};
