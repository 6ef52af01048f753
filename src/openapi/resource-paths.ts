import type { ResourceTypeDescription } from '../core/resource-types.js';
import { resourceAsReturned, type ResourceNames } from './resource-schemas.js';
import { bodyResponse, errorResponses, headerRefs, requestBody } from './responses.js';

/** An OpenAPI path item: method → operation. */
export type PathItem = Record<string, unknown>;

const param = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const PROJECTION = [param('attributes'), param('excludedAttributes')];
/** The query parameters of a list: filter, paging, sorting and projection. */
export const LIST_QUERY = [
  param('filter'),
  param('startIndex'),
  param('cursor'),
  param('count'),
  param('sortBy'),
  param('sortOrder'),
  ...PROJECTION,
];
/** What a 400 answer to a list or search means. */
export const LIST_400 =
  '`invalidFilter` for a bad or unsupported filter; `invalidValue` for a non-integer ' +
  'startIndex or count, a bad sortOrder or sortBy, or both attributes and excludedAttributes; ' +
  '`invalidCursor`, `expiredCursor` or `invalidCount` for a cursor page (RFC 9865); ' +
  '`tooMany` for a filter that needs more work than the server allows, or a first resource ' +
  'larger than the largest answer (maxResponseBytes): ask for less with excludedAttributes.';
/** What a 400 answer to a read of one resource means. */
const READ_400 =
  '`invalidValue` for both attributes and excludedAttributes; `tooMany` for a resource larger ' +
  'than the largest answer (maxResponseBytes), such as a group of many members: ask with ' +
  'excludedAttributes=members.';
const WRITE_400 =
  '`invalidSyntax` for malformed JSON or a body of the wrong shape; `invalidValue` for an ' +
  'unknown schema, a wrong type or a missing required attribute; `mutability` for a change ' +
  'to a readOnly or immutable attribute.';
const PATCH_400 =
  '`invalidSyntax`, `invalidPath` (a path that does not parse or names no attribute), ' +
  '`noTarget`, `invalidValue`, `mutability`, or `tooMany` (too many operations).';

// A write answers without a body when its answer would exceed maxResponseBytes (the write
// happened; RFC 7644 §3.5.2 lets a PATCH answer 204), and a group PATCH always does unless a
// projection is asked for, so that a one-member change never reads the whole member list.
const written = (what: string) => ({
  description:
    `${what}, without a body: the answer would exceed the largest answer (maxResponseBytes), ` +
    'or it is a PATCH of a Group without attributes or excludedAttributes. The ETag names the ' +
    'version written.',
  headers: headerRefs(['ETag']),
});

/**
 * The paths of one resource type, below the base path: its collection (list, create), its
 * `.search` and its item (read, replace, patch, delete).
 *
 * @see RFC 7644 §3.3-§3.6, §3.14
 */
export function resourcePaths(
  type: ResourceTypeDescription,
  names: ResourceNames,
): Record<string, PathItem> {
  const [core] = type.schemas;
  const one = core ? resourceAsReturned(core, names.resource) : schemaRef(names.resource);
  const plural = type.endpoint.replace(/^\//, '');
  const tags = [type.name];
  const resourceBody = (description: string) => requestBody(schemaRef(names.resource), description);
  const returned = (description: string, headers: string[]) =>
    bodyResponse(description, one, headers);
  const page = bodyResponse(`A page of ${plural}.`, schemaRef(names.list));
  return {
    [type.endpoint]: {
      get: {
        tags,
        operationId: `list${plural}`,
        summary: `List or filter ${plural}`,
        description: `One page of the tenant's ${plural}, ordered by id unless sortBy is given.`,
        parameters: LIST_QUERY,
        responses: { 200: page, ...errorResponses([400], { 400: LIST_400 }) },
      },
      post: {
        tags,
        operationId: `create${type.name}`,
        summary: `Create a ${type.name}`,
        parameters: PROJECTION,
        requestBody: resourceBody(`The new ${type.name}; readOnly attributes are ignored.`),
        responses: {
          201: returned(
            `The created ${type.name}; without a body when it would exceed the largest ` +
              'answer (maxResponseBytes).',
            ['ETag', 'Location'],
          ),
          ...errorResponses([400, 408, 409, 413, 415], { 400: WRITE_400 }),
        },
      },
    },
    [`${type.endpoint}/.search`]: {
      post: {
        tags,
        operationId: `search${plural}`,
        summary: `Search ${plural} with a query in the body`,
        requestBody: requestBody(schemaRef('SearchRequest'), 'The query.'),
        responses: {
          200: page,
          ...errorResponses([400, 408, 413, 415], { 400: `${LIST_400} Or \`invalidSyntax\`.` }),
        },
      },
    },
    [`${type.endpoint}/{id}`]: {
      parameters: [param('id')],
      get: {
        tags,
        operationId: `get${type.name}`,
        summary: `Read a ${type.name}`,
        parameters: [...PROJECTION, param('ifNoneMatch')],
        responses: {
          200: returned(`The ${type.name}.`, ['ETag']),
          304: { description: 'Not modified: If-None-Match names its version.' },
          ...errorResponses([400, 404], { 400: READ_400 }),
        },
      },
      put: {
        tags,
        operationId: `replace${type.name}`,
        summary: `Replace a ${type.name}`,
        description:
          'Replaces the updatable attributes: readWrite attributes left out are cleared; ' +
          'readOnly ones sent are ignored.',
        parameters: [...PROJECTION, param('ifMatch')],
        requestBody: resourceBody(`The ${type.name}'s new attributes.`),
        responses: {
          200: returned(`The replaced ${type.name}.`, ['ETag']),
          204: written(`Replaced`),
          ...errorResponses([400, 404, 408, 409, 412, 413, 415], { 400: WRITE_400 }),
        },
      },
      patch: {
        tags,
        operationId: `patch${type.name}`,
        summary: `Modify a ${type.name} with PatchOp operations`,
        description: 'Applies every operation or none; attributes not named stay as they are.',
        parameters: [...PROJECTION, param('ifMatch')],
        requestBody: requestBody(schemaRef('PatchOp'), 'The operations.'),
        responses: {
          200: returned(`The modified ${type.name}.`, ['ETag']),
          204: written(`Modified`),
          ...errorResponses([400, 404, 408, 409, 412, 413, 415], { 400: PATCH_400 }),
        },
      },
      delete: {
        tags,
        operationId: `delete${type.name}`,
        summary: `Delete a ${type.name}`,
        parameters: [param('ifMatch')],
        responses: { 204: { description: 'Deleted.' }, ...errorResponses([404, 412]) },
      },
    },
  };
}
