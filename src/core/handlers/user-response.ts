import type { ScimUser } from '../../schema/user-resource.js';
import { jsonResponse } from '../http/respond.js';
import type { ScimResponse } from '../types.js';

/** Adds the request-dependent `meta.location` to a stored user. */
export function withLocation(user: ScimUser, usersUrl: string): ScimUser {
  return { ...user, meta: { ...user.meta, location: `${usersUrl}/${user.id}` } };
}

/** Answers with one user, its `ETag` and, for a creation, its `Location`. */
export function userResponse(status: 200 | 201, user: ScimUser, usersUrl: string): ScimResponse {
  const output = withLocation(user, usersUrl);
  const headers: Record<string, string> = { etag: user.meta.version };
  if (status === 201) headers.location = output.meta.location ?? '';
  return jsonResponse(status, output, headers);
}
