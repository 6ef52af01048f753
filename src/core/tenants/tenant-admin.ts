import { deleteTenant, type DeleteTenantOptions, type TenantDeletion } from './delete-tenant.js';
import { exportTenant, type ExportedResource, type ExportTenantOptions } from './export-tenant.js';
import { KeyStore } from '../../auth/key-store.js';
import type { ResourceEndpoint } from '../handlers/resource-endpoint.js';
import type { ApiKeyVerifier } from '../../contracts/api-key-verifier.js';
import type { TenantParts } from './tenant-parts.js';

/** The host's operations on a whole tenant: offboarding, and the export that comes before it. */
export interface TenantAdmin {
  /**
   * Deletes the tenant's API keys (from the service's `KeyStore` verifier, or `options.keys`),
   * groups, host resources and users, in batches, each through the same service as a SCIM
   * DELETE (so with its `*.deleted` event). Run it again to finish a run that stopped halfway.
   * Resolves to what this call deleted. See docs/tenants.md.
   */
  delete(tenant: string, options?: DeleteTenantOptions): Promise<TenantDeletion>;
  /**
   * Reads the tenant's resources as SCIM JSON, one at a time, page by page (users with their
   * `groups`, groups with their `members`, then the host's types); see `toNdjson` to write it.
   */
  export(tenant: string, options?: ExportTenantOptions): AsyncIterable<ExportedResource>;
}

/**
 * Returns the tenant operations of a service serving `endpoints`. Resource URLs start with
 * `publicBaseUrl` (already checked by `createScim`) and the base path; the keys are the
 * verifier's when it is a `KeyStore`.
 *
 * @example
 * ```ts
 * for await (const resource of scim.tenants.export('district-42')) archive(resource);
 * await scim.tenants.delete('district-42', { onProgress: (p) => log(p.step, p.deleted) });
 * ```
 */
export function tenantAdmin(
  endpoints: readonly ResourceEndpoint[],
  options: {
    readonly basePath: string;
    readonly publicBaseUrl: string | undefined;
    readonly verifier: ApiKeyVerifier;
  },
): TenantAdmin {
  const origin = options.publicBaseUrl?.replace(/\/$/, '') ?? '';
  const parts: TenantParts = {
    endpoints,
    baseUrl: `${origin}${options.basePath}`,
    keys: options.verifier instanceof KeyStore ? options.verifier : undefined,
  };
  return {
    delete: (tenant, options) => deleteTenant(parts, tenant, options),
    export: (tenant, options) => exportTenant(parts, tenant, options),
  };
}
