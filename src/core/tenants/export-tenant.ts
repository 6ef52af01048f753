import { tenantIdProblem } from '../auth/check-tenant.js';
import { ResponseAllowance } from '../budget/response-allowance.js';
import type { ResourceEndpoint, StoredResource } from '../handlers/resource-endpoint.js';
import { withLocation } from '../http/response-json.js';
import { resourcePages } from './resource-pages.js';
import type { TenantParts } from './tenant-parts.js';

/** Resources read per page when {@link ExportTenantOptions.pageSize} is not given. */
export const DEFAULT_EXPORT_PAGE = 100;

/** Options of `scim.tenants.export`. */
export interface ExportTenantOptions {
  /** Resources read per store call, 1 to 10,000. Default 100. */
  readonly pageSize?: number;
}

/**
 * One resource of an export: SCIM JSON as a GET of it answers (`schemas`, `id`, attributes,
 * `meta` with `resourceType` and `location`): a user with its `groups`, a group with its
 * `members`.
 */
export type ExportedResource = StoredResource & Readonly<Record<string, unknown>>;

// An export is no response: nothing bounds it but what it reads at once (see exportTenant).
const unbounded = () =>
  new ResponseAllowance({ maxBytes: Infinity, free: Infinity, hold: () => undefined });

/**
 * Reads every resource of a tenant, as SCIM JSON, one at a time: users (with their `groups`),
 * then groups (with their `members`), then each type of the host's, each in id order.
 * `meta.location` and `$ref` start with `publicBaseUrl` when the service has one, else they
 * are paths below the base path. It reads page by page and holds one page at a time, and of
 * groups one group's member list at a time; nothing is read until it is iterated.
 *
 * @throws TypeError for a malformed tenant id, RangeError for a bad `pageSize` (both when
 *   iteration starts), and whatever a store throws.
 */
export async function* exportTenant(
  parts: TenantParts,
  tenant: string,
  options: ExportTenantOptions = {},
): AsyncGenerator<ExportedResource> {
  const problem = tenantIdProblem(tenant);
  if (problem !== undefined) throw new TypeError(`tenants.export: ${problem}.`);
  const pageSize = options.pageSize ?? DEFAULT_EXPORT_PAGE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 10_000)
    throw new RangeError(
      `tenants.export: pageSize must be a whole number from 1 to 10,000; got ${pageSize}.`,
    );
  for (const endpoint of parts.endpoints) {
    const url = `${parts.baseUrl}${endpoint.type.endpoint}`;
    // A group's members may be many: one group's list at a time. Users' groups are read for
    // a page at once, in one read.
    const one = endpoint.type.name === 'Group';
    for await (const page of resourcePages(endpoint, tenant, pageSize)) {
      const pieces = one ? page.map((resource) => [resource]) : [page];
      for (const piece of pieces)
        for (const resource of await expand(endpoint, tenant, piece, parts.baseUrl))
          yield withLocation(present(endpoint, resource, parts.baseUrl), url) as ExportedResource;
    }
  }
}

async function expand(
  endpoint: ResourceEndpoint,
  tenant: string,
  resources: readonly StoredResource[],
  baseUrl: string,
): Promise<readonly StoredResource[]> {
  if (!endpoint.expand) return resources;
  const allowance = unbounded();
  try {
    return await endpoint.expand(tenant, resources, undefined, baseUrl, allowance);
  } finally {
    allowance.close();
  }
}

const present = (endpoint: ResourceEndpoint, resource: StoredResource, baseUrl: string) =>
  endpoint.present ? endpoint.present(resource, baseUrl) : resource;
