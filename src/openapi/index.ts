/**
 * scimkit/openapi: the OpenAPI 3.1 document of a SCIM service, generated from the resource
 * types it serves and their schemas, for API portals, client generators and contract tests.
 *
 * @module
 * @example
 * ```ts
 * import { scimOpenApi } from 'scimkit/openapi';
 *
 * const document = scimOpenApi({ basePath: '/api/v1/scim/v2', extensions: [districtSchema] });
 * // Serve it beside the SCIM base, e.g. at /openapi.json.
 * const json = JSON.stringify(document);
 * ```
 */
export { openApiDocument } from './openapi-document.js';
export { scimOpenApi } from './scim-openapi.js';
export type { ScimOpenApiOptions } from './scim-openapi.js';
export type { JsonSchema, OpenApiDocument, OpenApiInput } from './types.js';
export type { ResourceTypeDescription } from '../core/resource-types.js';
