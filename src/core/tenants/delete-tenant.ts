import type { KeyStore } from '../../auth/key-store.js';
import { isScimError } from '../../errors/index.js';
import { tenantIdProblem } from '../auth/check-tenant.js';
import type { ResourceEndpoint } from '../handlers/resource-endpoint.js';
import type { TenantParts } from './tenant-parts.js';

/** Resources deleted per step when {@link DeleteTenantOptions.batchSize} is not given. */
export const DEFAULT_DELETE_BATCH = 500;
/** The largest {@link DeleteTenantOptions.batchSize}: one step's page is held in memory. */
export const MAX_DELETE_BATCH = 10_000;

/** Options of `scim.tenants.delete`. */
export interface DeleteTenantOptions {
  /** Resources read and deleted per step, 1 to 10,000. Default 500. */
  readonly batchSize?: number;
  /**
   * The key store whose keys of the tenant go first. Default: the service's verifier when it
   * is a `KeyStore`; `false` leaves keys alone.
   */
  readonly keys?: KeyStore | false;
  /** Hears of progress after the keys and after each step. A throw stops the deletion there. */
  readonly onProgress?: (progress: TenantDeletionProgress) => void;
}

/** Where a tenant's deletion stands. */
export interface TenantDeletionProgress {
  /** What is being deleted: `keys`, or a resource type's name (`Group`, `Class`, `User`). */
  readonly step: string;
  /** How many of it this call has deleted so far. */
  readonly deleted: number;
}

/** What `scim.tenants.delete` deleted (this call only: a run resumed after a crash counts the rest). */
export interface TenantDeletion {
  /** API keys deleted. */
  readonly keys: number;
  /** Resources deleted, by resource type name (`User`, `Group`, and the host's types). */
  readonly resources: Readonly<Record<string, number>>;
}

function batchSizeOf(value: number | undefined): number {
  const size = value ?? DEFAULT_DELETE_BATCH;
  if (!Number.isInteger(size) || size < 1 || size > MAX_DELETE_BATCH)
    throw new RangeError(
      `tenants.delete: batchSize must be a whole number from 1 to ${MAX_DELETE_BATCH}; got ${size}.`,
    );
  return size;
}

/**
 * Deletes every resource of a tenant, and its API keys, through the same services as SCIM
 * DELETE requests: each deletion emits its `user.deleted`, `group.deleted` or
 * `resource.deleted` event and removes the memberships the resource is part of. Keys go first,
 * so no client of the tenant writes while the rest goes; then groups (so no user deletion
 * rewrites a group that is going anyway), the host's types, and users last.
 *
 * It reads the first page of each type, deletes it, and reads again until none is left, so it
 * holds one page at a time and a run that stopped halfway (a crash, a store failure) is resumed
 * by running it again. Built on the store contracts alone (`list` and `delete`): every store
 * supports it.
 *
 * @throws TypeError for a malformed tenant id, RangeError for a bad `batchSize`, and whatever a
 *   store throws (nothing after it is deleted; run it again).
 */
export async function deleteTenant(
  parts: TenantParts,
  tenant: string,
  options: DeleteTenantOptions = {},
): Promise<TenantDeletion> {
  const problem = tenantIdProblem(tenant);
  if (problem !== undefined) throw new TypeError(`tenants.delete: ${problem}.`);
  const batchSize = batchSizeOf(options.batchSize);
  const report = options.onProgress ?? (() => undefined);
  const keyStore = options.keys === false ? undefined : (options.keys ?? parts.keys);
  let keys = 0;
  if (keyStore !== undefined) {
    for (const key of await keyStore.list(tenant)) {
      await keyStore.delete(key.id);
      keys++;
    }
    report({ step: 'keys', deleted: keys });
  }
  const resources: Record<string, number> = {};
  const users = parts.endpoints.filter((e) => e.type.name === 'User');
  const others = parts.endpoints.filter((e) => e.type.name !== 'User');
  for (const endpoint of [...others, ...users]) {
    const step = endpoint.type.name;
    resources[step] = await deleteEvery(endpoint, tenant, batchSize, (deleted) =>
      report({ step, deleted }),
    );
  }
  return { keys, resources };
}

// Deletes the tenant's resources of one type, first page after first page.
async function deleteEvery(
  endpoint: ResourceEndpoint,
  tenant: string,
  batchSize: number,
  report: (deleted: number) => void,
): Promise<number> {
  let deleted = 0;
  let previous = new Set<string>();
  for (;;) {
    const page = await endpoint.service.list(tenant, { startIndex: 1, count: batchSize }, {});
    if (page.resources.length === 0) return deleted;
    const batch = new Set<string>();
    for (const { id } of page.resources) {
      // A store that lists what it said it deleted would keep this loop going for ever.
      if (previous.has(id))
        throw new Error(
          `tenants.delete: the ${endpoint.type.name} store still lists "${id}" after deleting it.`,
        );
      batch.add(id);
      if (await deleteOne(endpoint, tenant, id)) deleted++;
    }
    previous = batch;
    report(deleted);
  }
}

// A resource another writer deleted meanwhile is gone all the same.
async function deleteOne(endpoint: ResourceEndpoint, tenant: string, id: string): Promise<boolean> {
  try {
    await endpoint.service.delete(tenant, id, undefined);
    return true;
  } catch (error) {
    if (isScimError(error) && error.status === 404) return false;
    throw error;
  }
}
