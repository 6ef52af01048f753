import { validateResourceInput } from '../../schema/validate-resource-input.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { ResourceHandler } from './context.js';
import { readProjection, resourceResponse } from './resource-response.js';

/**
 * POST to a resource endpoint (`/Users`, `/Groups`): validates the body with the type's body
 * reader and creates the resource; 201 with `Location` and `ETag`.
 *
 * @see RFC 7644 §3.3
 */
export const createResource: ResourceHandler = async (context) => {
  const { request, tenant, endpoint, config } = context;
  const { project } = readProjection(context);
  const body = readJsonBody(request, config.maxBodyBytes);
  const input = validateResourceInput(body, endpoint.type.input);
  const resource = await endpoint.service.create(tenant.id, input);
  return resourceResponse(201, resource, context, project);
};
