import type { PathItem } from './resource-paths.js';
import { bodyResponse, errorResponses, requestBody } from './responses.js';
import type { JsonSchema } from './types.js';
import { BULK_REQUEST_SCHEMA } from '../schema/urns.js';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const METHOD = { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'] };

/** The BulkRequest message (RFC 7644 §3.7). */
export const bulkRequestSchema: JsonSchema = {
  type: 'object',
  required: ['Operations'],
  properties: {
    schemas: {
      type: 'array',
      items: { type: 'string' },
      contains: { const: BULK_REQUEST_SCHEMA },
    },
    failOnErrors: { type: 'integer', minimum: 1 },
    Operations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['method', 'path'],
        properties: {
          method: METHOD,
          bulkId: { type: 'string' },
          version: { type: 'string' },
          path: { type: 'string', description: '`/Users` for POST, `/Users/{id}` otherwise.' },
          data: { type: 'object', description: 'The body of POST, PUT or PATCH.' },
        },
      },
    },
  },
};

/** The BulkResponse message (RFC 7644 §3.7). */
export const bulkResponseSchema: JsonSchema = {
  type: 'object',
  required: ['schemas', 'Operations'],
  properties: {
    schemas: { type: 'array', items: { type: 'string' } },
    Operations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['status'],
        properties: {
          method: METHOD,
          bulkId: { type: 'string' },
          version: { type: 'string' },
          location: { type: 'string' },
          status: { type: 'string', description: 'The HTTP status of the operation.' },
          response: { ...schemaRef('Error'), description: 'The SCIM error of a failed one.' },
        },
      },
    },
  },
};

/**
 * The `/Bulk` path: POST of a BulkRequest, answered with a BulkResponse.
 *
 * @see RFC 7644 §3.7
 */
export function bulkPaths(): Record<string, PathItem> {
  return {
    '/Bulk': {
      post: {
        tags: ['Bulk'],
        operationId: 'bulk',
        summary: 'Run many operations in one request',
        description:
          'Each operation runs as the request sent alone would; `bulkId:<id>` stands for the ' +
          'id a POST of the same request created. Not one transaction: each operation is atomic.',
        requestBody: requestBody(schemaRef('BulkRequest'), 'The operations.'),
        responses: {
          200: bodyResponse('What each operation run answered.', schemaRef('BulkResponse')),
          ...errorResponses([400, 408, 413, 415], {
            413: 'The body exceeds maxPayloadSize, or the operations maxOperations.',
          }),
        },
      },
    },
  };
}

/**
 * The `/Me` path: the User's item operations (read, replace, patch, delete) on the user the
 * host maps the caller to, taken from the User's `/Users/{id}` path.
 *
 * @see RFC 7644 §3.11
 */
export function mePaths(userItem: PathItem): Record<string, PathItem> {
  const me: PathItem = {};
  for (const [method, operation] of Object.entries(userItem)) {
    if (method === 'parameters') continue;
    const op = operation as Record<string, unknown>;
    me[method] = {
      ...op,
      tags: ['Me'],
      operationId: `${method}Me`,
      summary: `${String(op.summary)}: the caller's own (/Me)`,
    };
  }
  return { '/Me': me };
}
