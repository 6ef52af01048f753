import type { ListQuery } from '../../contracts/user-store.js';
import { checkFilter, parseFilter } from '../../filter/index.js';
import { queryParams } from '../http/query-params.js';
import { jsonResponse } from '../http/respond.js';
import type { Handler } from './context.js';
import { readListParams } from './list-params.js';
import { withLocation } from './user-response.js';

/** The schema URN of a list response. */
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/**
 * GET /Users and /Users/: one page of the tenant's users ordered by id, optionally filtered.
 * `Resources` is always present; `totalResults` counts every match.
 *
 * @see RFC 7644 §3.4.2
 */
export const listUsers: Handler = async ({ request, tenant, users, config, usersUrl }) => {
  const params = readListParams(queryParams(request.query), config);
  let query: ListQuery = { startIndex: params.startIndex, count: params.count };
  if (params.filter !== undefined) {
    const filter = checkFilter(parseFilter(params.filter), config.schemas);
    users.assertFilterSupported(filter, params.filter);
    query = { ...query, filter };
  }
  const page = await users.list(tenant.id, query);
  return jsonResponse(200, {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: page.totalResults,
    itemsPerPage: page.resources.length,
    startIndex: params.startIndex,
    Resources: page.resources.map((user) => withLocation(user, usersUrl)),
  });
};
