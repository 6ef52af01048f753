import { applyPatchIn } from '../../patch/apply-patch.js';
import { getHeader } from '../http/headers.js';
import { readJsonBody } from '../http/read-json-body.js';
import type { Handler } from './context.js';
import { deliverPassword } from './password.js';
import { readProjection, userResponse } from './user-response.js';

/**
 * PATCH /Users/{id}: applies a PatchOp message, all operations or none; attributes not named
 * stay as they are. A PATCH that changes nothing succeeds without a write. A `password` the
 * operations set, however they name it, goes to the host's `onPassword` hook.
 *
 * @see RFC 7644 §3.5.2
 */
export const patchUser: Handler = async (context) => {
  const { request, tenant, id, users, config } = context;
  const project = readProjection(context);
  const body = readJsonBody(request, config.maxBodyBytes);
  const ifMatch = getHeader(request.headers, 'if-match');
  let password: unknown;
  const user = await users.update(tenant.id, id, ifMatch, (current) => {
    const result = applyPatchIn(config.patch, current, body);
    // From the attempt that is written: the update may run this again on a newer version.
    password = result.writeOnly.password;
    return result.changed ? result.resource : null;
  });
  // The engine coerced it to the attribute's type, a string.
  await deliverPassword(context, user.id, typeof password === 'string' ? password : undefined);
  return userResponse(200, user, context, project);
};
