import { validateUserInput } from '../../schema/validate-user.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { Handler } from './context.js';
import { deliverPassword } from './password.js';
import { readProjection, userResponse } from './user-response.js';

/**
 * POST /Users: creates a user; 201 with `Location` and `ETag`, 409 `uniqueness` when the
 * userName is taken in the tenant regardless of case.
 *
 * @see RFC 7644 §3.3
 */
export const createUser: Handler = async (context) => {
  const { request, tenant, users, config } = context;
  const project = readProjection(context);
  const body = readJsonBody(request, config.maxBodyBytes);
  const input = validateUserInput(body, config.resourceType.input);
  const user = await users.create(tenant.id, input.attributes);
  await deliverPassword(context, user.id, input.password);
  return userResponse(201, user, context, project);
};
