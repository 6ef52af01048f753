import { ScimConfigError } from '../../errors/index.js';
import { isAttributeName } from '../../schema/attribute-path.js';
import type { SchemaDefinition } from '../../schema/types.js';
import { checkExtensions } from '../check-extensions.js';
import { ENDPOINT_NAMES } from '../routes.js';
import type { HostResourceType } from './host-resource-type.js';

const STORE_METHODS = ['create', 'get', 'replace', 'delete', 'list'] as const;

/**
 * Checks the host's resource types once, at start: names and endpoints spelled as attribute
 * names and, in any letter case, unique among the types served and apart from every RFC 7644
 * endpoint (`/Users`, `/Groups`, `/Me`, `/Bulk`, ...); schema ids that are `urn:`s used by no
 * other schema served (`taken`: the User's and Group's, the User's extensions), with valid
 * attribute names; a store with every method.
 *
 * @throws ScimConfigError naming the first problem.
 */
export function checkHostTypes(
  types: readonly HostResourceType[],
  taken: readonly SchemaDefinition[],
): void {
  const names = new Set(['user', 'group']);
  const endpoints = new Set<string>(ENDPOINT_NAMES.map((name) => name.toLowerCase()));
  const schemas = [...taken];
  for (const type of types) {
    const where = `createScim: resource type "${String(type?.name)}"`;
    if (typeof type?.name !== 'string' || !isAttributeName(type.name))
      throw new ScimConfigError(`${where}: the name must be spelled as an attribute name.`);
    if (names.has(type.name.toLowerCase()))
      throw new ScimConfigError(`${where}: a resource type of that name is served already.`);
    names.add(type.name.toLowerCase());
    const endpoint = type.endpoint;
    if (
      typeof endpoint !== 'string' ||
      !endpoint.startsWith('/') ||
      !isAttributeName(endpoint.slice(1))
    )
      throw new ScimConfigError(
        `${where}: endpoint ${JSON.stringify(endpoint)} must be "/" and a name, such as "/Classes".`,
      );
    if (endpoints.has(endpoint.slice(1).toLowerCase()))
      throw new ScimConfigError(`${where}: endpoint "${endpoint}" is served already.`);
    endpoints.add(endpoint.slice(1).toLowerCase());
    const own = [type.schema, ...(type.extensions ?? [])];
    if (own.some((s) => typeof s?.id !== 'string' || !Array.isArray(s.attributes)))
      throw new ScimConfigError(`${where}: each schema needs an "id" and "attributes".`);
    checkExtensions(schemas, own, 'schema');
    schemas.push(...own);
    const missing = STORE_METHODS.filter((m) => typeof type.store?.[m] !== 'function');
    if (missing.length > 0)
      throw new ScimConfigError(
        `${where}: missing ${missing.map((m) => `store.${m}()`).join(', ')}.`,
      );
  }
}
