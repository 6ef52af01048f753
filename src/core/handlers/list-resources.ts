import type { ListQuery } from '../../contracts/store-query.js';
import { compileProjection, type Projector } from '../../schema/project-resource.js';
import { queryParams } from '../http/query-params.js';
import { readJsonBody } from '../http/read-json-body.js';
import { RESPONSE_CONTENT_TYPE } from '../http/media-type.js';
import { indexPageJson, listOfTexts, resourceTexts } from '../http/response-json.js';
import { boundedUtf8Length } from '../../json/utf8-length.js';
import { keepParts } from '../budget/keep-parts.js';
import type { ResponseAllowance } from '../budget/response-allowance.js';
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

// An index-paged list, nearly every list a client asks for; a cursor list below.
async function answerList(context: ResourceContext, params: ListParams): Promise<ScimResponse> {
  if (params.cursor !== undefined) return answerCursorList(context, params, params.cursor);
  const project = compileProjection(params, context.endpoint.type);
  const query = storeQuery(context, params);
  const page = await context.endpoint.service.list(context.tenant.id, query, params);
  const allowance = context.config.responses.open();
  try {
    const resources = await expanded(page.resources, context, project, allowance);
    return indexPage(context, params, page, resources, project, allowance);
  } finally {
    allowance.close();
  }
}

// The index-paged ListResponse of a page read, its resources expanded, as many as fit the
// answer's budget: `itemsPerPage` says how many, and the client's next page starts after them
// (RFC 7644 §3.4.2.4 lets a page hold fewer than `count`). `totalResults` stays exact. The
// caller closes the allowance.
function indexPage(
  context: ResourceContext,
  params: ListParams,
  page: ResourcePage,
  resources: readonly StoredResource[],
  project: Projector | undefined,
  allowance: ResponseAllowance,
): ScimResponse {
  const { totalResults } = page;
  const { startIndex } = params;
  // A type that adds nothing for the request's base URL (the User) shows the page as read.
  const shown = context.endpoint.present
    ? resources.map((resource) => presented(resource, context))
    : resources;
  // The whole page first, as nearly every page fits; resource by resource when it does not.
  let body = indexPageJson({ totalResults, startIndex }, shown, context.url, project);
  if (allowance.keep([boundedUtf8Length(body, allowance.capacity)], 0) === 0) {
    const texts = resourceTexts(shown, context.url, project);
    const count = keepParts(allowance, texts);
    body = listOfTexts(
      { schemas: [LIST_RESPONSE_SCHEMA], totalResults, itemsPerPage: count, startIndex },
      texts.slice(0, count),
    );
  }
  return { status: 200, headers: { 'content-type': RESPONSE_CONTENT_TYPE }, body };
}

// An RFC 9865 cursor page: no startIndex, and nextCursor / previousCursor. A page too large for
// the answer's budget is read again with as many resources as fit, so that the store places
// `nextCursor` right after the last one shown.
async function answerCursorList(
  context: ResourceContext,
  params: ListParams,
  text: string,
): Promise<ScimResponse> {
  const { tenant, endpoint } = context;
  const project = compileProjection(params, endpoint.type);
  const query = storeQuery(context, params);
  const cursor = await readCursor(context, params, text);
  // Each pass reads fewer resources than the one before, so the loop ends.
  for (let count = cursor.count; ;) {
    const allowance = context.config.responses.open();
    try {
      const page = await endpoint.service.list(
        tenant.id,
        { ...query, seek: cursor.seek, count },
        params,
      );
      const resources = await expanded(page.resources, context, project, allowance);
      const shown = resources.map((resource) => presented(resource, context));
      const texts = resourceTexts(shown, context.url, project);
      const kept = keepParts(allowance, texts);
      if (kept < page.resources.length) {
        count = kept;
        continue;
      }
      const body = listOfTexts(
        {
          schemas: [LIST_RESPONSE_SCHEMA],
          totalResults: page.totalResults,
          itemsPerPage: kept,
          ...(await cursorMembers(cursor, page)),
        },
        texts,
      );
      return { status: 200, headers: { 'content-type': RESPONSE_CONTENT_TYPE }, body };
    } finally {
      allowance.close();
    }
  }
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
export const listResources: ResourceHandler = async (context) =>
  answerList(context, readListParams(queryParams(context.request.query), context.config));

/**
 * POST `/.search` below a resource endpoint: the same query as the GET form, from a
 * SearchRequest body.
 *
 * @see RFC 7644 §3.4.3
 */
export const searchResources: ResourceHandler = async (context) =>
  answerList(
    context,
    readSearchRequest(readJsonBody(context.request, context.config.maxBodyBytes), context.config),
  );
