import { applyPatch } from '../../patch/index.js';
import { getHeader } from '../http/headers.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { Handler } from './context.js';
import { deliverPassword, passwordInPatch } from './password.js';
import { readProjection, userResponse } from './user-response.js';

/**
 * PATCH /Users/{id}: applies a PatchOp message, all operations or none; attributes not named
 * stay as they are. A PATCH that changes nothing succeeds without a write.
 *
 * @see RFC 7644 §3.5.2
 */
export const patchUser: Handler = async (context) => {
  const { request, tenant, id, users, config } = context;
  const project = readProjection(context);
  const body = readJsonBody(request, config.maxBodyBytes);
  const ifMatch = getHeader(request.headers, 'if-match');
  const user = await users.update(tenant.id, id, ifMatch, (current) => {
    const result = applyPatch(current, body, config.patchOptions);
    return result.changed ? result.resource : null;
  });
  // The password goes to the host's hook, if there is one; it is never stored.
  if (config.onPassword) await deliverPassword(context, user.id, passwordInPatch(body));
  return userResponse(200, user, context, project);
};
