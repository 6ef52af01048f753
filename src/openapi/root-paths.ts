import type { ResourceTypeDescription } from '../core/resource-types.js';
import { listResponseSchema } from './messages.js';
import { LIST_400, LIST_QUERY, type PathItem } from './resource-paths.js';
import { resourceAsReturned, type ResourceNames } from './resource-schemas.js';
import { bodyResponse, errorResponses, requestBody } from './responses.js';

const ORDER =
  'Ordered by resource type, in the order served, then by id (or by sortBy within each type ' +
  'that defines it); totalResults is the sum over the types. A comparison on an attribute a ' +
  'type does not define matches nothing of that type; an attribute no type defines is ' +
  '`invalidFilter`. Without a filter every resource is listed, a page at a time. Cursor ' +
  'paging is not offered here: a `cursor` answers 400 `invalidValue`.';

/**
 * The root paths, below the base path: `GET /` and `POST /.search`, a search across every
 * resource type served, whose pages hold resources of any of `types`.
 *
 * @see RFC 7644 §3.4.3
 */
export function rootPaths(
  types: readonly ResourceTypeDescription[],
  names: readonly ResourceNames[],
): Record<string, PathItem> {
  const items = types.flatMap((type, i) => {
    const [core] = type.schemas;
    const resource = names[i]?.resource;
    return core && resource !== undefined ? [resourceAsReturned(core, resource)] : [];
  });
  const page = bodyResponse(
    'A page of resources of every type.',
    listResponseSchema({ oneOf: items }, 'every type of'),
  );
  const tags = ['Search'];
  return {
    '/': {
      get: {
        tags,
        operationId: 'searchAll',
        summary: 'Search every resource type',
        description: ORDER,
        parameters: LIST_QUERY,
        responses: { 200: page, ...errorResponses([400], { 400: LIST_400 }) },
      },
    },
    '/.search': {
      post: {
        tags,
        operationId: 'searchAllWithBody',
        summary: 'Search every resource type with a query in the body',
        description: ORDER,
        requestBody: requestBody({ $ref: '#/components/schemas/SearchRequest' }, 'The query.'),
        responses: {
          200: page,
          ...errorResponses([400, 408, 413, 415], { 400: `${LIST_400} Or \`invalidSyntax\`.` }),
        },
      },
    },
  };
}
