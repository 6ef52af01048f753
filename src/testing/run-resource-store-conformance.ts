import type { ResourceStore } from '../contracts/resource-store.js';
import { CaseSkipped } from './assertions.js';
import {
  conformanceThingType,
  resourceStoreCases,
  thingMaker,
  type ResourceStoreCase,
} from './resource-store-cases.js';
import type { StoreConformanceOptions, StoreConformanceResult } from './types.js';

/** Makes a fresh, empty resource store for each case. */
export type ResourceStoreFactory = () => ResourceStore | Promise<ResourceStore>;

/**
 * Runs one resource store case on a fresh store from `factory`; never throws for a failing
 * store. Tenants get a random suffix, so a shared database keeps cases apart.
 */
export async function runResourceStoreCase(
  testCase: ResourceStoreCase,
  factory: ResourceStoreFactory,
  options: StoreConformanceOptions = {},
): Promise<StoreConformanceResult> {
  const { id, title } = testCase;
  const skipped = options.skip?.[id];
  if (skipped !== undefined) return { id, title, status: 'skipped', reason: skipped };
  const suffix = Math.random().toString(36).slice(2, 8);
  try {
    await testCase.run({
      store: await factory(),
      tenant: `tenant-a-${suffix}`,
      otherTenant: `tenant-b-${suffix}`,
      type: conformanceThingType,
      ...thingMaker(),
      skip(reason) {
        throw new CaseSkipped(reason);
      },
    });
    return { id, title, status: 'passed' };
  } catch (error) {
    if (error instanceof CaseSkipped) return { id, title, status: 'skipped', reason: error.reason };
    return { id, title, status: 'failed', error };
  }
}

/**
 * Runs every resource store case (the store of a resource type a host registers), one fresh
 * store each, with no test runner.
 *
 * @example
 * ```ts
 * const results = await runResourceStoreConformance(() => new MyClassStore());
 * const failed = results.filter((r) => r.status === 'failed');
 * ```
 */
export async function runResourceStoreConformance(
  factory: ResourceStoreFactory,
  options: StoreConformanceOptions = {},
): Promise<StoreConformanceResult[]> {
  const results: StoreConformanceResult[] = [];
  for (const testCase of resourceStoreCases)
    results.push(await runResourceStoreCase(testCase, factory, options));
  return results;
}
