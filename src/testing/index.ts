/**
 * The store conformance suite: the behaviour every store must have (the user store, its groups,
 * event log and subscription state, and the stores of host resource types), as data, behind one entry point. Each
 * case has a stable id, a title and a `run(ctx)` that uses its own assertions, so the suite
 * runs under any test runner; `scimkit/testing/vitest` wraps it for vitest.
 *
 * @module
 * @example
 * ```ts
 * import { runStoreConformance } from 'scimkit/testing';
 *
 * const results = await runStoreConformance(() => new MyUserStore());
 * for (const r of results) console.log(r.status, r.id);
 * ```
 */
export { storeConformanceCases } from './cases/index.js';
export {
  runResourceStoreConformance,
  runStoreConformance,
  runStoreConformanceCase,
} from './run-store-conformance.js';
export { createUserFactory } from './user-factory.js';
export { CaseSkipped } from './assertions.js';
export { resourceStoreCases, conformanceThingType } from './resource-store-cases.js';
export type { ResourceStoreCase, ResourceStoreTestContext } from './resource-store-cases.js';
export { runResourceStoreCase } from './run-resource-store-case.js';
export type {
  ResourceStoreFactory,
  StoreConformanceCase,
  StoreConformanceOptions,
  StoreConformanceResult,
  StoreConformanceTargets,
  StoreFactory,
  StoreHarness,
  StoreTestContext,
  UserFactory,
} from './types.js';
