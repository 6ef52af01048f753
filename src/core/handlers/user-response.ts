import type { ScimUser } from '../../schema/user-resource.js';
import { RESPONSE_CONTENT_TYPE } from '../http/media-type.js';
import {
  compileProjection,
  splitAttributeList,
  type Projector,
} from '../../schema/project-resource.js';
import { queryParams } from '../http/query-params.js';
import type { ScimResponse } from '../types.js';
import type { HandlerContext } from './context.js';

/** Returns a user with the request-dependent `meta.location` added, leaving `user` as it is. */
export function withLocation(user: ScimUser, usersUrl: string): ScimUser {
  return { ...user, meta: { ...user.meta, location: `${usersUrl}/${user.id}` } };
}

/**
 * Answers with one user, its `ETag` and, for a creation, its `Location`, shaped by the
 * request's `attributes` / `excludedAttributes`.
 *
 * @see RFC 7644 §3.9
 */
export function userResponse(
  status: 200 | 201,
  user: ScimUser,
  context: HandlerContext,
  project: Projector | undefined,
): ScimResponse {
  const output = withLocation(user, context.usersUrl);
  const headers: Record<string, string> = {
    'content-type': RESPONSE_CONTENT_TYPE,
    etag: user.meta.version,
  };
  if (status === 201) headers.location = output.meta.location ?? '';
  return { status, headers, body: JSON.stringify(project ? project(output) : output) };
}

/**
 * Reads the request's `attributes` / `excludedAttributes`. Writes call it before they change
 * anything, so a bad projection (both lists) is refused with nothing written.
 *
 * @throws ScimError 400 `invalidValue` when both lists are given.
 */
export function readProjection({ request, config }: HandlerContext): Projector | undefined {
  if (request.query === undefined || request.query === '') return undefined;
  const params = queryParams(request.query);
  return compileProjection(
    {
      attributes: splitAttributeList(params.get('attributes')),
      excludedAttributes: splitAttributeList(params.get('excludedAttributes')),
    },
    config.schemas,
  );
}
