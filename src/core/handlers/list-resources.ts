import type { ListQuery } from '../../contracts/store-query.js';
import { compileProjection, type Projector } from '../../schema/project-resource.js';
import { isThenable } from '../auth/authenticate.js';
import { queryParams } from '../http/query-params.js';
import { readJsonBody } from '../http/read-json-body.js';
import { RESPONSE_CONTENT_TYPE } from '../http/media-type.js';
import { indexPageJson, listResponseJson } from '../http/response-json.js';
import type { ScimResponse } from '../types.js';
import type { ResourceContext, ResourceHandler } from './context.js';
import { readListParams, readSearchRequest, type ListParams } from './list-params.js';
import { expanded, presented } from './resource-response.js';
import type { ResourcePage, StoredResource } from './resource-endpoint.js';
import { checkSortBy } from './sort-by.js';
import { cursorMembers, readCursor } from './cursor-paging.js';
import { LIST_RESPONSE_SCHEMA } from '../../schema/urns.js';

// The store query of a list request, its filter and sort checked; built once, handed on as is.
function storeQuery(context: ResourceContext, params: ListParams): ListQuery {
  const { type, service } = context.endpoint;
  const query: { -readonly [K in keyof ListQuery]: ListQuery[K] } = {
    startIndex: params.startIndex,
    count: params.count,
    resourceType: type,
  };
  if (params.filter !== undefined) {
    query.filter = context.endpoint.readFilter(params.filter);
    service.assertFilterSupported(query.filter, params.filter);
  }
  if (params.sortBy !== undefined) {
    query.sortBy = checkSortBy(params.sortBy, type);
    service.assertSortSupported(query.sortBy, params.sortBy);
    query.sortOrder = params.sortOrder;
  }
  return query;
}

// An index-paged list, nearly every list a client asks for, as `then`s on the reads rather
// than an async function: no async frame or awaits per request, and no turn at all for a type
// that adds nothing to its resources (filter: 620 bytes fewer per request,
// bench/RESULTS.md "Session 11: reads"). A fault before the store's read throws; the request
// phases answer it as the rejection it was.
function answerList(context: ResourceContext, params: ListParams): Promise<ScimResponse> {
  if (params.cursor !== undefined) return answerCursorList(context, params, params.cursor);
  const project = compileProjection(params, context.endpoint.type);
  const query = storeQuery(context, params);
  return context.endpoint.service.list(context.tenant.id, query, params).then((page) => {
    const resources = expanded(page.resources, context, project);
    return isThenable(resources)
      ? resources.then((all) => indexPage(context, params, page, all, project))
      : indexPage(context, params, page, resources, project);
  });
}

// The index-paged ListResponse of a page read, its resources expanded.
function indexPage(
  context: ResourceContext,
  params: ListParams,
  page: ResourcePage,
  resources: readonly StoredResource[],
  project: Projector | undefined,
): ScimResponse {
  const { totalResults } = page;
  // A type that adds nothing for the request's base URL (the User) shows the page as read.
  const shown = context.endpoint.present
    ? resources.map((resource) => presented(resource, context))
    : resources;
  const body = indexPageJson(
    { totalResults, startIndex: params.startIndex },
    shown,
    context.url,
    project,
  );
  return { status: 200, headers: { 'content-type': RESPONSE_CONTENT_TYPE }, body };
}

// An RFC 9865 cursor page: no startIndex, and nextCursor / previousCursor.
async function answerCursorList(
  context: ResourceContext,
  params: ListParams,
  text: string,
): Promise<ScimResponse> {
  const { tenant, endpoint } = context;
  const project = compileProjection(params, endpoint.type);
  const query = storeQuery(context, params);
  const cursor = await readCursor(context, params, text);
  const page = await endpoint.service.list(
    tenant.id,
    { ...query, seek: cursor.seek, count: cursor.count },
    params,
  );
  const resources = await expanded(page.resources, context, project);
  const shown = resources.map((resource) => presented(resource, context));
  const body = listResponseJson(
    {
      schemas: [LIST_RESPONSE_SCHEMA],
      totalResults: page.totalResults,
      itemsPerPage: resources.length,
      ...(await cursorMembers(cursor, page)),
    },
    shown,
    context.url,
    project,
  );
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
