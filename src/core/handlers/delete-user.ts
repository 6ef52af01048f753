import { getHeader } from '../http/headers.js';
import { emptyResponse } from '../http/respond.js';
import type { Handler } from './context.js';

/**
 * DELETE /Users/{id}: 204, then the id answers 404.
 *
 * @see RFC 7644 §3.6
 */
export const deleteUser: Handler = async ({ request, tenant, id, users }) => {
  await users.delete(tenant.id, id, getHeader(request.headers, 'if-match'));
  return emptyResponse(204);
};
