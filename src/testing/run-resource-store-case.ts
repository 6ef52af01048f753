import { CaseSkipped } from './assertions.js';
import {
  conformanceThingType,
  thingMaker,
  type ResourceStoreCase,
} from './resource-store-cases.js';
import { settleCase } from './settle-case.js';
import type {
  ResourceStoreFactory,
  StoreConformanceOptions,
  StoreConformanceResult,
} from './types.js';

/**
 * Runs one resource store case on a fresh store from `factory`; never throws for a failing
 * store. Tenants get a random suffix, so a shared database keeps cases apart.
 */
export async function runResourceStoreCase(
  testCase: ResourceStoreCase,
  factory: ResourceStoreFactory,
  options: StoreConformanceOptions = {},
): Promise<StoreConformanceResult> {
  const suffix = Math.random().toString(36).slice(2, 8);
  return settleCase(testCase, options, async () =>
    testCase.run({
      store: await factory(),
      tenant: `tenant-a-${suffix}`,
      otherTenant: `tenant-b-${suffix}`,
      type: conformanceThingType,
      ...thingMaker(),
      skip(reason) {
        throw new CaseSkipped(reason);
      },
    }),
  );
}
