import type { KeyStore } from '../../auth/key-store.js';
import type { ResourceEndpoint } from '../handlers/resource-endpoint.js';

/** What the tenant operations work with: the service's resource types and where they live. */
export interface TenantParts {
  /** The served resource types (User first, then Group, then the host's), as the core serves them. */
  readonly endpoints: readonly ResourceEndpoint[];
  /** The URL resource URLs start with: `publicBaseUrl` and the base path, or the base path alone. */
  readonly baseUrl: string;
  /** The key store the tenant's keys are in, when the service knows it (its verifier). */
  readonly keys: KeyStore | undefined;
}
