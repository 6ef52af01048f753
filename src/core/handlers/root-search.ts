import type { ListQuery } from '../../contracts/store-query.js';
import { scimErrors } from '../../errors/index.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import { checkFilter } from '../../filter/check-filter.js';
import { stringifyAttributePath } from '../../filter/stringify-filter.js';
import { parseAttributePath } from '../../schema/attribute-path.js';
import { compileProjection } from '../../schema/project-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { queryParams } from '../http/query-params.js';
import { readJsonBody } from '../http/read-json-body.js';
import { RESPONSE_CONTENT_TYPE } from '../http/media-type.js';
import { keepParts, LIST_OVERHEAD } from '../budget/keep-parts.js';
import type { ScimResponse } from '../types.js';
import type { Handler, HandlerContext } from './context.js';
import { readListParams, readSearchRequest, type ListParams } from './list-params.js';
import type { ResourceEndpoint } from './resource-endpoint.js';
import { listOfTexts, resourceTexts } from '../http/response-json.js';
import { expanded, presented } from './resource-response.js';
import { checkSortBy } from './sort-by.js';
import { LIST_RESPONSE_SCHEMA } from '../../schema/urns.js';

// A filter as it applies to one resource type: a filter to run, or a constant when the
// attributes the type lacks decide it (every resource matches, or none does).
type TypeFilter = Filter | boolean;

// Replaces each top-level comparison, presence test or value filter on an attribute the type
// does not define by `false` (nothing of this type has a value there), and folds the constants
// through and / or / not. Paths inside brackets are relative to an attribute the type has, so
// they are left for checkFilter, as on the type's endpoint.
function restrictToType(filter: Filter, type: CompiledResourceType): TypeFilter {
  switch (filter.kind) {
    case 'compare':
    case 'present':
    case 'valuePath':
      return type.resolve(filter.path) === undefined ? false : filter;
    case 'not': {
      const inner = restrictToType(filter.filter, type);
      return typeof inner === 'boolean' ? !inner : { kind: 'not', filter: inner };
    }
    case 'and':
    case 'or': {
      const left = restrictToType(filter.left, type);
      const right = restrictToType(filter.right, type);
      // The constant that decides the whole: false for `and`, true for `or`.
      const absorbing = filter.kind === 'or';
      if (left === absorbing || right === absorbing) return absorbing;
      if (typeof left === 'boolean') return right;
      if (typeof right === 'boolean') return left;
      return { kind: filter.kind, left, right };
    }
  }
}

// The top-level attribute paths of a filter (not those inside brackets).
function topLevelPaths(filter: Filter, into: AttributePath[] = []): AttributePath[] {
  switch (filter.kind) {
    case 'not':
      return topLevelPaths(filter.filter, into);
    case 'and':
    case 'or':
      topLevelPaths(filter.left, into);
      return topLevelPaths(filter.right, into);
    default:
      into.push(filter.path);
      return into;
  }
}

/** What one resource type of a root search is asked: its query, or nothing when none matches. */
interface TypeQuery {
  readonly endpoint: ResourceEndpoint;
  /** Without `startIndex` / `count`, which the page assembly sets; `undefined`: none match. */
  readonly query: Omit<ListQuery, 'startIndex' | 'count'> | undefined;
}

function typeQueries(endpoints: readonly ResourceEndpoint[], params: ListParams): TypeQuery[] {
  const { filter: text, sortBy } = params;
  // The types served under one profile share its dialect rules: the filter is read once, with
  // the first type's reader (which reports the rules it fires), and restricted to each type.
  const [firstEndpoint] = endpoints;
  const parsed =
    text === undefined || firstEndpoint === undefined ? undefined : firstEndpoint.parseFilter(text);
  // An attribute no resource type defines is a mistake, as on any endpoint (RFC 7644 §3.4.2.2).
  if (parsed !== undefined) {
    for (const path of topLevelPaths(parsed)) {
      if (endpoints.every(({ type }) => type.resolve(path) === undefined)) {
        throw scimErrors.invalidFilter(
          `"${stringifyAttributePath(path)}" is not an attribute of any resource type served.`,
        );
      }
    }
  }
  const sortPath = sortBy === undefined ? undefined : parseAttributePath(sortBy.trim());
  const sortedTypes = endpoints.filter(
    ({ type }) => sortPath !== undefined && type.resolve(sortPath) !== undefined,
  );
  // A sortBy no type defines answers as it does on an endpoint (the first type's 400).
  if (sortBy !== undefined && sortedTypes.length === 0 && firstEndpoint !== undefined)
    checkSortBy(sortBy, firstEndpoint.type);
  return endpoints.map((endpoint) => {
    const { type, service } = endpoint;
    const query: { -readonly [K in keyof ListQuery]?: ListQuery[K] } = { resourceType: type };
    if (parsed !== undefined && text !== undefined) {
      const restricted = restrictToType(parsed, type);
      if (restricted === false) return { endpoint, query: undefined };
      if (restricted !== true) {
        query.filter = checkFilter(restricted, type);
        service.assertFilterSupported(query.filter, text);
      }
    }
    if (sortBy !== undefined && sortedTypes.includes(endpoint)) {
      query.sortBy = checkSortBy(sortBy, type);
      service.assertSortSupported(query.sortBy, sortBy);
      query.sortOrder = params.sortOrder;
    }
    return { endpoint, query };
  });
}

function refuseCursor(present: boolean): void {
  if (present)
    throw scimErrors.invalidValue(
      'Cursor paging is not offered at the root; page a search across resource types with ' +
        '"startIndex" and "count", or use cursors on a resource type\'s own endpoint.',
    );
}

async function answerRootSearch(
  context: HandlerContext,
  params: ListParams,
): Promise<ScimResponse> {
  const { tenant, baseUrl, config } = context;
  const { endpoints } = config;
  // Every check (filter, sortBy, projection, store support) before any store is asked.
  const queries = typeQueries(endpoints, params);
  const projections = endpoints.map(({ type }) => compileProjection(params, type));
  const { startIndex, count } = params;
  const allowance = config.responses.open();
  try {
    const texts: string[] = [];
    let before = 0;
    // Once the answer's budget stops a type's part short, the later types are only counted.
    let full = false;
    for (const [i, { endpoint, query }] of queries.entries()) {
      if (query === undefined) continue;
      // The resources of earlier types come first: this type's part of the page starts at
      // `startIndex - before` within it, and holds what room is left on the page.
      const page = await endpoint.service.list(
        tenant.id,
        {
          ...query,
          startIndex: Math.max(1, startIndex - before),
          count: full ? 0 : count - texts.length,
        },
        params,
      );
      before += page.totalResults;
      if (full || page.resources.length === 0) continue;
      const url = `${baseUrl}${endpoint.type.endpoint}`;
      const project = projections[i];
      // What the type's own endpoint adds to a response (the User's `groups`, a group's
      // members) is added here too, within the same budget.
      const context = { endpoint, tenant, baseUrl };
      const expandedPage = await expanded(page.resources, context, project, allowance);
      const shown = expandedPage.map((stored) => presented(stored, context));
      const typeTexts = resourceTexts(shown, url, project);
      const overhead = allowance.held === 0 ? LIST_OVERHEAD : 0;
      const kept = keepParts(allowance, typeTexts, overhead, texts.length === 0);
      for (const text of typeTexts.slice(0, kept)) texts.push(text);
      if (kept < page.resources.length) full = true;
    }
    const body = listOfTexts(
      {
        schemas: [LIST_RESPONSE_SCHEMA],
        totalResults: before,
        itemsPerPage: texts.length,
        startIndex,
      },
      texts,
    );
    return { status: 200, headers: { 'content-type': RESPONSE_CONTENT_TYPE }, body };
  } finally {
    allowance.close();
  }
}

/**
 * GET at the root of the service (`/?filter=...`): a search across every resource type served,
 * with the list parameters of a resource endpoint. Results are ordered by resource type, in
 * the order served (the User first), then by each type's own order (id, or `sortBy` where the
 * type defines that attribute); `totalResults` is the sum over the types. A filter comparison
 * on an attribute a type does not define is false for that type's resources; an attribute no
 * type defines answers 400 `invalidFilter`. Without a filter, every resource is listed, a page
 * at a time. A `cursor` parameter answers 400 `invalidValue`.
 *
 * @see RFC 7644 §3.4.2, §3.4.3
 */
export const rootList: Handler = async (context) => {
  const query = queryParams(context.request.query);
  refuseCursor(query.has('cursor'));
  return answerRootSearch(context, readListParams(query, context.config));
};

/**
 * POST `/.search` at the root: the same search as {@link rootList}, from a SearchRequest body.
 *
 * @see RFC 7644 §3.4.3
 */
export const rootSearch: Handler = async (context) => {
  const body = readJsonBody(context.request, context.config.maxBodyBytes);
  const params = readSearchRequest(body, context.config);
  refuseCursor(Object.keys(body as object).some((key) => key.toLowerCase() === 'cursor'));
  return answerRootSearch(context, params);
};
