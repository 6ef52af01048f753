import type { ListQuery } from '../../contracts/user-store.js';
import { compileProjection } from '../../schema/project-resource.js';
import { queryParams } from '../http/query-params.js';
import { readJsonBody } from '../http/read-json-body.js';
import { RESPONSE_CONTENT_TYPE } from '../http/media-type.js';
import { jsonResponse } from '../http/respond.js';
import type { ScimUser } from '../../schema/user-resource.js';
import type { ScimResponse } from '../types.js';
import type { Handler, HandlerContext } from './context.js';
import { readListParams, readSearchRequest, type ListParams } from './list-params.js';
import { checkSortBy } from './sort-by.js';
import { locatedUserJson, withLocation } from './user-response.js';

/** The schema URN of a list response. */
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

async function answerList(context: HandlerContext, params: ListParams): Promise<ScimResponse> {
  const { tenant, users, config, usersUrl } = context;
  const project = compileProjection(params, config.resourceType);
  // One object, built here and handed on as it is.
  const query: { -readonly [K in keyof ListQuery]: ListQuery[K] } = {
    startIndex: params.startIndex,
    count: params.count,
    resourceType: config.resourceType,
  };
  if (params.filter !== undefined) {
    query.filter = config.readFilter(params.filter);
    users.assertFilterSupported(query.filter, params.filter);
  }
  if (params.sortBy !== undefined) {
    query.sortBy = checkSortBy(params.sortBy, config.resourceType);
    users.assertSortSupported(query.sortBy, params.sortBy);
    query.sortOrder = params.sortOrder;
  }
  const page = await users.list(tenant.id, query);
  const resources = await users.withGroups(tenant.id, page.resources, usersUrl, project);
  if (!project && resources.length === 1) {
    // A page of one, the answer to the userName probe every IdP sends: written as text around
    // the user, which takes its location without being copied (see locatedUserJson).
    const user = locatedUserJson(resources[0] as ScimUser, usersUrl);
    return {
      status: 200,
      headers: { 'content-type': RESPONSE_CONTENT_TYPE },
      body: `{"schemas":["${LIST_RESPONSE_SCHEMA}"],"totalResults":${page.totalResults},"itemsPerPage":1,"startIndex":${params.startIndex},"Resources":[${user}]}`,
    };
  }
  // Stores may hand out shared, read-only users (UserStore.list): location goes on a copy.
  const located = resources.map((user) => withLocation(user, usersUrl));
  return jsonResponse(200, {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: page.totalResults,
    itemsPerPage: located.length,
    startIndex: params.startIndex,
    Resources: project ? located.map(project) : located,
  });
}

/**
 * GET /Users and /Users/: one page of the tenant's users ordered by id (or `sortBy`),
 * optionally filtered and projected. `Resources` is always present; `totalResults` counts
 * every match.
 *
 * @see RFC 7644 §3.4.2
 */
export const listUsers: Handler = (context) =>
  answerList(context, readListParams(queryParams(context.request.query), context.config));

/**
 * POST /Users/.search: the same query as GET /Users, from a SearchRequest body.
 *
 * @see RFC 7644 §3.4.3
 */
export const searchUsers: Handler = (context) =>
  answerList(
    context,
    readSearchRequest(readJsonBody(context.request, context.config.maxBodyBytes), context.config),
  );
