import type { PathItem } from './resource-paths.js';
import { bodyResponse, errorResponses } from './responses.js';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const tags = ['Discovery'];

function read(operationId: string, summary: string, schema: string, notFound = false) {
  return {
    get: {
      tags,
      operationId,
      summary,
      responses: {
        200: bodyResponse(summary, schemaRef(schema)),
        ...errorResponses(notFound ? [404] : []),
      },
    },
  };
}

/**
 * The discovery paths every SCIM service serves, below the base path: what it supports, its
 * resource types and its schemas.
 *
 * @see RFC 7644 §4
 */
export function discoveryPaths(): Record<string, PathItem> {
  const byId = { parameters: [{ $ref: '#/components/parameters/id' }] };
  return {
    '/ServiceProviderConfig': read(
      'getServiceProviderConfig',
      'What the service supports',
      'ServiceProviderConfig',
    ),
    '/ResourceTypes': read('listResourceTypes', 'The resource types', 'ResourceTypeListResponse'),
    '/ResourceTypes/{id}': {
      ...byId,
      ...read('getResourceType', 'One resource type, by name', 'ResourceType', true),
    },
    '/Schemas': read('listSchemas', 'The schemas', 'SchemaListResponse'),
    '/Schemas/{id}': {
      ...byId,
      ...read('getSchema', 'One schema, by URN', 'Schema', true),
    },
  };
}
