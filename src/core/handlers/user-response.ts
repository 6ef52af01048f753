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
 * Serialises a user with its request-dependent `meta.location`, as
 * `JSON.stringify(withLocation(user, usersUrl))` does. When `meta` is the user's last member,
 * as in every user the core builds, the location is written into the text instead of into a
 * copy of the user: no object is copied to answer a read.
 */
export function locatedUserJson(user: ScimUser, usersUrl: string): string {
  const { meta } = user;
  const plain = !hasToJson(user) && !hasToJson(meta);
  if (!plain || meta.location !== undefined || lastKey(user) !== 'meta')
    return JSON.stringify(withLocation(user, usersUrl));
  const json = JSON.stringify(user);
  // `{...,"meta":{...}}`: the location goes in before meta's closing brace.
  const head = json.slice(0, -2);
  const separator = head.endsWith('{') ? '' : ',';
  return `${head}${separator}"location":${JSON.stringify(`${usersUrl}/${user.id}`)}}}`;
}

// A toJSON method would serialise the object its own way: leave such objects to JSON.stringify.
function hasToJson(value: object): boolean {
  return (value as { toJSON?: unknown }).toJSON !== undefined;
}

// The last enumerable key `for...in` visits, as JSON.stringify orders members; no array built.
function lastKey(value: object): string | undefined {
  let last: string | undefined;
  for (const key in value) last = key;
  return last;
}

/**
 * Answers with one user (with its computed `groups` when the projection shows them), its
 * `ETag` and, for a creation, its `Location`, shaped by the request's `attributes` /
 * `excludedAttributes`.
 *
 * @see RFC 7644 §3.9
 */
export async function userResponse(
  status: 200 | 201,
  stored: ScimUser,
  context: HandlerContext,
  project: Projector | undefined,
): Promise<ScimResponse> {
  const [user] = (await context.users.withGroups(
    context.tenant.id,
    [stored],
    context.usersUrl,
    project,
  )) as [ScimUser];
  const headers: Record<string, string> = {
    'content-type': RESPONSE_CONTENT_TYPE,
    etag: user.meta.version,
  };
  if (status === 201) headers.location = `${context.usersUrl}/${user.id}`;
  const body = project
    ? JSON.stringify(project(withLocation(user, context.usersUrl)))
    : locatedUserJson(user, context.usersUrl);
  return { status, headers, body };
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
    config.resourceType,
  );
}
