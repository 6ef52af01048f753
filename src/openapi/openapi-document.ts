import { notImplemented } from '../core/handlers/not-implemented.js';
import { ENDPOINT_NAMES, matchRoute } from '../core/routes.js';
import { ScimConfigError } from '../errors/index.js';
import { isAttributeName } from '../schema/attribute-path.js';
import { bulkPaths, bulkRequestSchema, bulkResponseSchema, mePaths } from './bulk-paths.js';
import { discoveryPaths } from './discovery-paths.js';
import {
  errorSchema,
  listResponseSchema,
  patchOpSchema,
  resourceTypeSchema,
  schemaAttributeSchema,
  schemaResourceSchema,
  searchRequestSchema,
  serviceProviderConfigSchema,
} from './messages.js';
import { headerComponents, parameterComponents } from './parameters.js';
import { resourcePaths, type PathItem } from './resource-paths.js';
import { rootPaths } from './root-paths.js';
import { addResourceSchemas, ComponentNames } from './resource-schemas.js';
import { errorResponseComponents } from './responses.js';
import type { JsonSchema, OpenApiDocument, OpenApiInput } from './types.js';

// An endpoint is a slash and one name, spelled as attribute names are (`/Users`, `/Classes`).
const isEndpoint = (text: string): boolean =>
  text.startsWith('/') && isAttributeName(text.slice(1));

/** The endpoints of the route table that answer 501 Not Implemented, such as `/Bulk`. */
export function notImplementedEndpoints(): string[] {
  return ENDPOINT_NAMES.filter((name) => answers501(`/${name}`)).map((name) => `/${name}`);
}

// An endpoint that answers 501 does so to every method; a served one may refuse GET (`/Bulk`).
function answers501(path: string): boolean {
  try {
    return matchRoute('GET', path).handler === notImplemented;
  } catch {
    return false;
  }
}

function messageSchemas(): Record<string, JsonSchema> {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  return {
    Error: errorSchema,
    PatchOp: patchOpSchema,
    BulkRequest: bulkRequestSchema,
    BulkResponse: bulkResponseSchema,
    SearchRequest: searchRequestSchema,
    ServiceProviderConfig: serviceProviderConfigSchema,
    ResourceType: resourceTypeSchema,
    ResourceTypeListResponse: listResponseSchema(ref('ResourceType'), 'ResourceType'),
    Schema: schemaResourceSchema,
    SchemaAttribute: schemaAttributeSchema,
    SchemaListResponse: listResponseSchema(ref('Schema'), 'Schema'),
  };
}

function serverUrl({ serverUrl, basePath = '' }: OpenApiInput): string | undefined {
  if (serverUrl === undefined) return basePath === '' ? undefined : basePath;
  return `${serverUrl.replace(/\/+$/, '')}${basePath}`;
}

function describe(input: OpenApiInput, omitted: readonly string[]): string {
  const lines = [
    'A SCIM 2.0 service (RFC 7643, RFC 7644) served by scimkit. Every request carries ' +
      '`Authorization: Bearer <API key>`; the key decides the tenant, and resources of other ' +
      'tenants are invisible. Bodies are `application/scim+json` (`application/json` is ' +
      'accepted too); every error is a SCIM error. Endpoint names match in any case, a ' +
      'trailing slash is allowed on collections, and HEAD is answered wherever GET is.',
  ];
  if (omitted.length > 0) {
    lines.push(
      `Not described: ${omitted.join(', ')}, which answer 501 Not Implemented to every method.`,
    );
  }
  if (input.resourceTypes.length > 0) {
    lines.push(`Resource types: ${input.resourceTypes.map((t) => t.name).join(', ')}.`);
  }
  return lines.join('\n\n');
}

/**
 * Generates the OpenAPI 3.1 document of a SCIM service from the resource types it serves and
 * their schemas: every endpoint (each resource type's collection, `.search` and item paths,
 * and the discovery endpoints), every parameter, the request and response bodies as JSON
 * Schema 2020-12 derived from the SCIM attribute definitions, the ListResponse, PatchOp and
 * SearchRequest messages, the SCIM error responses, and bearer authentication. Endpoints that
 * answer 501 are left out and named in `info.description`. A pure function: no I/O.
 *
 * @throws ScimConfigError when a resource type has no schema, an endpoint is not `/Name`, or
 *   two resource types share an endpoint.
 * @see RFC 7644 §3, §4; https://spec.openapis.org/oas/v3.1.0
 * @example
 * ```ts
 * import { userSchema } from 'scimkit';
 * import { openApiDocument } from 'scimkit/openapi';
 *
 * const document = openApiDocument({
 *   basePath: '/api/v1/scim/v2',
 *   serverUrl: 'https://scim.example.org',
 *   resourceTypes: [{ name: 'User', endpoint: '/Users', schemas: [userSchema] }],
 * });
 * ```
 */
export function openApiDocument(input: OpenApiInput): OpenApiDocument {
  const described = new Set<string>();
  for (const type of input.resourceTypes) {
    if (!isEndpoint(type.endpoint)) {
      throw new ScimConfigError(
        `openApiDocument: endpoint "${type.endpoint}" of "${type.name}" must look like "/Name".`,
      );
    }
    if (described.has(type.endpoint.toLowerCase()))
      throw new ScimConfigError(`openApiDocument: two resource types at "${type.endpoint}".`);
    described.add(type.endpoint.toLowerCase());
  }
  const schemas = messageSchemas();
  const names = new ComponentNames(Object.keys(schemas));
  const resourceNames = addResourceSchemas(input.resourceTypes, names, schemas);
  const paths: Record<string, PathItem> = {};
  input.resourceTypes.forEach((type, i) =>
    Object.assign(paths, resourcePaths(type, resourceNames[i] as (typeof resourceNames)[number])),
  );
  if (input.resourceTypes.length > 0)
    Object.assign(paths, rootPaths(input.resourceTypes, resourceNames));
  Object.assign(paths, bulkPaths());
  const userItem = paths['/Users/{id}'];
  if (input.me === true && userItem !== undefined) {
    Object.assign(paths, mePaths(userItem));
    described.add('/me');
  }
  Object.assign(paths, discoveryPaths());
  const omitted = notImplementedEndpoints().filter((e) => !described.has(e.toLowerCase()));
  const url = serverUrl(input);
  return {
    openapi: '3.1.0',
    info: {
      title: input.title ?? 'SCIM 2.0 service',
      version: input.version ?? '2.0',
      description: describe(input, omitted),
    },
    ...(url === undefined ? {} : { servers: [{ url }] }),
    security: [{ bearer: [] }],
    tags: [
      ...input.resourceTypes.map((t) => ({
        name: t.name,
        description: t.description ?? `${t.name} resources`,
      })),
      { name: 'Search', description: 'Search across every resource type (RFC 7644 §3.4.3).' },
      { name: 'Bulk', description: 'Many operations in one request (RFC 7644 §3.7).' },
      ...(input.me === true
        ? [{ name: 'Me', description: "The caller's own user (RFC 7644 §3.11)." }]
        : []),
      { name: 'Discovery', description: 'What the service supports (RFC 7644 §4).' },
    ],
    paths,
    components: {
      schemas,
      parameters: parameterComponents(input),
      responses: errorResponseComponents(),
      headers: headerComponents,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key, sent as `Authorization: Bearer <key>`.',
        },
      },
    },
  };
}
