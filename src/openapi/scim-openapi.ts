import { optionGroups } from '../core/compile/resolve-options.js';
import type {
  DialectOptions,
  PagingOptions,
  ScimOptionsBase,
  SchemaOptions,
} from '../core/options.js';
import { builtInResourceTypes } from '../core/resource-types.js';
import { openApiDocument } from './openapi-document.js';
import type { OpenApiDocument, OpenApiInput } from './types.js';

/**
 * Options of {@link scimOpenApi}: the `createScim` options the document depends on (pass the
 * same object: its `store` decides whether `/Groups` is served, `me` whether `/Me` is), and how
 * to present it.
 */
export interface ScimOpenApiOptions
  extends
    Partial<
      Pick<
        ScimOptionsBase,
        | 'basePath'
        | 'publicBaseUrl'
        | 'extensions'
        | 'groupExtensions'
        | 'patchRules'
        | 'defaultPageSize'
        | 'maxPageSize'
        | 'me'
        | 'resourceTypes'
        | 'store'
        | 'schema'
        | 'dialects'
        | 'paging'
      >
    >,
    Pick<OpenApiInput, 'serverUrl' | 'title' | 'version'> {}

/**
 * Generates the OpenAPI 3.1 document of the service `createScim(options)` builds: the
 * resource types the core serves with their schemas (the Group when the store keeps groups),
 * the host's extensions included. Pass the options given to `createScim` (what else they hold
 * is ignored); without the store the document describes a service without groups. The server URL is
 * `serverUrl`, else `publicBaseUrl`, followed by `basePath`.
 *
 * @throws ScimConfigError when an extension is invalid, as `createScim` would.
 * @example
 * ```ts
 * import { createScim } from 'scimkit';
 * import { scimOpenApi } from 'scimkit/openapi';
 *
 * const options = {
 *   store,
 *   auth: { verifier },
 *   basePath: '/scim/v2',
 *   schema: { extensions: [districtSchema] },
 * };
 * const scim = createScim(options);
 * const document = scimOpenApi({ ...options, serverUrl: 'https://scim.example.org' });
 * app.get('/openapi.json', (req, res) => res.json(document));
 * ```
 */
export function scimOpenApi(options: ScimOpenApiOptions = {}): OpenApiDocument {
  const groups = optionGroups(options);
  const schema = groups.schema as SchemaOptions;
  const paging = groups.paging as PagingOptions;
  const { patchRules } = groups.dialects as DialectOptions;
  const input: { -readonly [K in keyof OpenApiInput]: OpenApiInput[K] } = {
    resourceTypes: builtInResourceTypes({
      extensions: schema.extensions,
      groupExtensions: schema.groupExtensions,
      patchRules,
      store: options.store,
      resourceTypes: options.resourceTypes,
    }),
  };
  const serverUrl = options.serverUrl ?? options.publicBaseUrl;
  if (serverUrl !== undefined) input.serverUrl = serverUrl;
  if (options.basePath !== undefined) input.basePath = options.basePath;
  if (options.title !== undefined) input.title = options.title;
  if (options.version !== undefined) input.version = options.version;
  if (paging.defaultPageSize !== undefined) input.defaultPageSize = paging.defaultPageSize;
  if (options.me !== undefined) input.me = true;
  if (paging.maxPageSize !== undefined) input.maxPageSize = paging.maxPageSize;
  return openApiDocument(input);
}
