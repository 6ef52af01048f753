import type { ListQuery } from '../../contracts/store-query.js';
import { compileProjection } from '../../schema/project-resource.js';
import { queryParams } from '../http/query-params.js';
import { readJsonBody } from '../http/read-json-body.js';
import { RESPONSE_CONTENT_TYPE } from '../http/media-type.js';
import { indexPageJson, listResponseJson } from '../http/response-json.js';
import type { ScimResponse } from '../types.js';
import type { ResourceContext, ResourceHandler } from './context.js';
import { readListParams, readSearchRequest, type ListParams } from './list-params.js';
import { expanded, presented } from './resource-response.js';
import { checkSortBy } from './sort-by.js';
import { cursorMembers, readCursor } from './cursor-paging.js';
import { LIST_RESPONSE_SCHEMA } from '../../schema/urns.js';

async function answerList(context: ResourceContext, params: ListParams): Promise<ScimResponse> {
  const { tenant, endpoint } = context;
  const { type, service } = endpoint;
  const project = compileProjection(params, type);
  // One object, built here and handed on as it is.
  const query: { -readonly [K in keyof ListQuery]: ListQuery[K] } = {
    startIndex: params.startIndex,
    count: params.count,
    resourceType: type,
  };
  if (params.filter !== undefined) {
    query.filter = endpoint.readFilter(params.filter);
    service.assertFilterSupported(query.filter, params.filter);
  }
  if (params.sortBy !== undefined) {
    query.sortBy = checkSortBy(params.sortBy, type);
    service.assertSortSupported(query.sortBy, params.sortBy);
    query.sortOrder = params.sortOrder;
  }
  const cursor =
    params.cursor === undefined ? undefined : await readCursor(context, params, params.cursor);
  if (cursor) Object.assign(query, { seek: cursor.seek, count: cursor.count });
  const page = await service.list(tenant.id, query, params);
  const resources = await expanded(page.resources, context, project);
  const shown = resources.map((resource) => presented(resource, context));
  const { totalResults } = page;
  // RFC 9865: a cursor page has no startIndex, and carries nextCursor / previousCursor.
  const body = cursor
    ? listResponseJson(
        {
          schemas: [LIST_RESPONSE_SCHEMA],
          totalResults,
          itemsPerPage: resources.length,
          ...(await cursorMembers(cursor, page)),
        },
        shown,
        context.url,
        project,
      )
    : indexPageJson({ totalResults, startIndex: params.startIndex }, shown, context.url, project);
  return { status: 200, headers: { 'content-type': RESPONSE_CONTENT_TYPE }, body };
}

/**
 * GET of a resource endpoint (`/Users`, `/Groups`, with or without a trailing slash): one
 * page ordered by id (or `sortBy`), optionally filtered and projected. `Resources` is always
 * present; `totalResults` counts every match. Pages by `startIndex`, or by RFC 9865
 * `cursor` (see `readCursor`).
 *
 * @see RFC 7644 §3.4.2
 * @see RFC 9865 §2
 */
export const listResources: ResourceHandler = (context) =>
  answerList(context, readListParams(queryParams(context.request.query), context.config));

/**
 * POST `/.search` below a resource endpoint: the same query as the GET form, from a
 * SearchRequest body.
 *
 * @see RFC 7644 §3.4.3
 */
export const searchResources: ResourceHandler = (context) =>
  answerList(
    context,
    readSearchRequest(readJsonBody(context.request, context.config.maxBodyBytes), context.config),
  );
