import { scimErrors } from '../../errors/index.js';
import { toSchemaResource } from '../../schema/to-schema-resource.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { SchemaDefinition } from '../../schema/types.js';
import { jsonResponse } from '../http/respond.js';
import type { Handler, HandlerContext } from './context.js';
import { LIST_RESPONSE_SCHEMA, RESOURCE_TYPE_SCHEMA, SPC_SCHEMA } from '../../schema/urns.js';

/**
 * The RFC 9865 §4 `pagination` complex: index paging always, cursors when the store pages by
 * keyset; index stays the default so clients that predate cursors see no change.
 */
function pagination(config: HandlerContext['config']) {
  const { cursors, defaultPageSize, maxPageSize } = config;
  return {
    cursor: cursors !== undefined,
    index: true,
    defaultPaginationMethod: 'index',
    defaultPageSize,
    maxPageSize,
    ...(cursors && cursors.timeoutSeconds > 0 ? { cursorTimeout: cursors.timeoutSeconds } : {}),
  };
}

/**
 * GET /ServiceProviderConfig: what this server really supports, from the same settings the
 * handlers use (a test compares each claim with behaviour). The RFC 9865 `pagination` block
 * is left out under `advertiseCursors: false`, for clients that refuse it.
 *
 * @see RFC 7643 §5; RFC 7644 §4; RFC 9865 §4
 */
export const serviceProviderConfig: Handler = async (context) => {
  const { config } = context;
  return jsonResponse(200, {
    schemas: [SPC_SCHEMA],
    documentationUri: 'https://github.com/scimkit/scimkit#readme',
    patch: { supported: true },
    bulk: {
      supported: true,
      maxOperations: config.maxBulkOperations,
      maxPayloadSize: config.maxBulkPayloadBytes,
    },
    filter: { supported: true, maxResults: config.maxPageSize },
    // A password is never kept: it is changed only when the host receives it (`onPassword`).
    changePassword: { supported: config.changePassword },
    sort: { supported: config.sortSupported },
    etag: { supported: true },
    ...(config.advertisePagination ? { pagination: pagination(config) } : {}),
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'An API key sent as "Authorization: Bearer <key>".',
        specUri: 'https://www.rfc-editor.org/rfc/rfc6750',
        primary: true,
      },
    ],
    meta: {
      resourceType: 'ServiceProviderConfig',
      location: `${context.baseUrl}/ServiceProviderConfig`,
    },
  });
};

/**
 * GET /serviceConfiguration: `/ServiceProviderConfig` under another name, for a profile with the
 * `serviceConfigurationAlias` answer convention (`entra`: Microsoft's SCIM test collection asks
 * for it); no endpoint (404) under any other.
 */
export const serviceConfiguration: Handler = async (context) => {
  if (!context.config.answers.serviceConfigurationAlias)
    throw scimErrors.notFound('No SCIM endpoint at "/serviceConfiguration".');
  return await serviceProviderConfig(context);
};

function resourceTypeResource(context: HandlerContext, type: CompiledResourceType) {
  const { name, endpoint, description, core, extensions } = type;
  return {
    schemas: [RESOURCE_TYPE_SCHEMA],
    id: name,
    name,
    endpoint,
    description,
    schema: core.id,
    schemaExtensions: extensions.map((e) => ({ schema: e.id, required: false })),
    meta: { resourceType: 'ResourceType', location: `${context.baseUrl}/ResourceTypes/${name}` },
  };
}

function listOf(resources: unknown[]) {
  return {
    schemas: [LIST_RESPONSE_SCHEMA],
    totalResults: resources.length,
    itemsPerPage: resources.length,
    startIndex: 1,
    Resources: resources,
  };
}

function servedTypes(context: HandlerContext): CompiledResourceType[] {
  return context.config.endpoints.map((e) => e.type);
}

/**
 * GET /ResourceTypes and /ResourceTypes/{name}: every resource type served (`User`, and
 * `Group` when the store keeps groups).
 *
 * @see RFC 7643 §6; RFC 7644 §4
 */
export const resourceTypes: Handler = async (context) => {
  const types = servedTypes(context);
  if (context.id === '')
    return jsonResponse(200, listOf(types.map((t) => resourceTypeResource(context, t))));
  const type = types.find((t) => t.name === context.id);
  if (!type) throw scimErrors.notFound(`No resource type "${context.id}".`);
  return jsonResponse(200, resourceTypeResource(context, type));
};

/**
 * GET /Schemas and /Schemas/{urn}: the definitions that drive validation, PATCH, filters and
 * projection, rendered as RFC 7643 §7 Schema resources.
 *
 * @see RFC 7643 §7; RFC 7644 §4
 */
export const schemas: Handler = async (context) => {
  const types = servedTypes(context);
  const render = (s: SchemaDefinition) => toSchemaResource(s, `${context.baseUrl}/Schemas/${s.id}`);
  if (context.id === '') {
    // A schema two types share (none today) is listed once.
    const all = [...new Set(types.flatMap((t) => t.schemas))];
    return jsonResponse(200, listOf(all.map(render)));
  }
  for (const type of types) {
    const schema = type.schema(context.id);
    if (schema) return jsonResponse(200, render(schema));
  }
  throw scimErrors.notFound(`No schema "${context.id}".`);
};
