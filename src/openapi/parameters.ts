import { SORT_ORDERS } from './messages.js';
import type { JsonSchema, OpenApiInput } from './types.js';

/** Page sizes and body limits the descriptions quote, when the host gave them. */
type Limits = Pick<OpenApiInput, 'defaultPageSize' | 'maxPageSize'>;

const query = (name: string, schema: JsonSchema, description: string): JsonSchema => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});

const header = (name: string, description: string): JsonSchema => ({
  name,
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description,
});

function pageSize({ defaultPageSize, maxPageSize }: Limits): string {
  const parts = ['How many resources per page; negative is read as 0.'];
  if (defaultPageSize !== undefined) parts.push(`Default ${defaultPageSize}.`);
  parts.push(
    maxPageSize === undefined
      ? 'A larger value is lowered to the server maximum.'
      : `At most ${maxPageSize}; a larger value is lowered to it.`,
  );
  return parts.join(' ');
}

/**
 * The reusable parameters of a SCIM service: the list query (RFC 7644 §3.4.2), the projection
 * (§3.9), the ETag preconditions (§3.14) and the resource id.
 */
export function parameterComponents(limits: Limits): Record<string, JsonSchema> {
  return {
    id: {
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string' },
      description: 'The resource id.',
    },
    filter: query(
      'filter',
      { type: 'string' },
      'A filter expression (RFC 7644 §3.4.2.2), such as `userName eq "ada@example.org"`.',
    ),
    startIndex: query(
      'startIndex',
      { type: 'integer', default: 1 },
      'The 1-based index of the first result; below 1 is read as 1.',
    ),
    count: query('count', { type: 'integer' }, pageSize(limits)),
    cursor: query(
      'cursor',
      { type: 'string' },
      'RFC 9865 cursor paging: empty for the first page, then the nextCursor or previousCursor ' +
        'of the previous page; not with startIndex (see /ServiceProviderConfig pagination).',
    ),
    sortBy: query(
      'sortBy',
      { type: 'string' },
      'The attribute to sort by (400 when the store cannot sort; see /ServiceProviderConfig).',
    ),
    sortOrder: query(
      'sortOrder',
      { type: 'string', enum: [...SORT_ORDERS], default: 'ascending' },
      'The sort direction.',
    ),
    attributes: query(
      'attributes',
      { type: 'string' },
      'Comma-separated attributes to return (with those always returned); not with excludedAttributes.',
    ),
    excludedAttributes: query(
      'excludedAttributes',
      { type: 'string' },
      'Comma-separated attributes to leave out of the response; not with attributes.',
    ),
    ifMatch: header(
      'If-Match',
      'Apply only if the resource is still at this version (its ETag); else 412.',
    ),
    ifNoneMatch: header('If-None-Match', 'Answer 304 if the resource is still at this version.'),
  };
}

/** The reusable response headers. */
export const headerComponents: Record<string, JsonSchema> = {
  ETag: {
    description: "The resource's version, a weak ETag (its `meta.version`).",
    schema: { type: 'string' },
  },
  Location: { description: 'The URI of the created resource.', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'The expected scheme: Bearer.', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};
