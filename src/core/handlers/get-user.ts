import { etagMatches } from '../http/etag.js';
import { getHeader } from '../http/headers.js';
import { emptyResponse } from '../http/respond.js';
import type { Handler } from './context.js';
import { readProjection, userResponse } from './user-response.js';

/**
 * GET /Users/{id}: 200 with the user, 304 when `If-None-Match` names its version, 404.
 *
 * @see RFC 7644 §3.4.1, §3.14
 */
export const getUser: Handler = async (context) => {
  const { request, tenant, id, users } = context;
  const project = readProjection(context);
  const user = await users.get(tenant.id, id);
  const ifNoneMatch = getHeader(request.headers, 'if-none-match');
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, user.meta.version)) {
    return emptyResponse(304, { etag: user.meta.version });
  }
  return userResponse(200, user, context, project);
};
