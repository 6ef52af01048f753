import { scimErrors } from '../../errors/index.js';
import { validateResourceInput } from '../../schema/validate-resource-input.js';
import { getHeader } from '../http/headers.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { ResourceHandler } from './context.js';
import { readProjection, resourceResponse } from './resource-response.js';

/**
 * PUT of a resource (`/Users/{id}`, `/Groups/{id}`): replaces what a client may write, as the
 * type's service decides; readOnly attributes are ignored; an `id` that differs from the path
 * is 400 `mutability`.
 *
 * @see RFC 7644 §3.5.1
 */
export const replaceResource: ResourceHandler = async (context) => {
  const { request, tenant, id, endpoint, config } = context;
  const { project } = readProjection(context);
  const body = readJsonBody(request, config.maxBodyBytes);
  const input = validateResourceInput(body, endpoint.type.input);
  if (input.id !== undefined && input.id !== id) {
    throw scimErrors.mutability(
      `"id" is readOnly: the body says "${JSON.stringify(input.id)}" but the path says "${id}".`,
    );
  }
  const ifMatch = getHeader(request.headers, 'if-match');
  const resource = await endpoint.service.replace(tenant.id, id, ifMatch, input);
  return resourceResponse(200, resource, context, project);
};
