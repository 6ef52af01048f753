import { storeConformanceCases } from './cases/index.js';
import { runResourceStoreCase } from './run-resource-store-case.js';
import { resourceStoreCases } from './resource-store-cases.js';
import { settleCase } from './settle-case.js';
import { openStoreTestContext } from './store-test-context.js';
import type {
  ResourceStoreFactory,
  StoreConformanceCase,
  StoreConformanceOptions,
  StoreConformanceResult,
  StoreConformanceTargets,
  StoreFactory,
} from './types.js';

/**
 * Runs one case against a fresh store from `factory`. Resolves to its outcome; never throws for
 * a failing store.
 */
export async function runStoreConformanceCase(
  testCase: StoreConformanceCase,
  factory: StoreFactory,
  options: StoreConformanceOptions = {},
): Promise<StoreConformanceResult> {
  return settleCase(testCase, options, async () => {
    const opened = await openStoreTestContext(factory);
    try {
      await testCase.run(opened.ctx);
    } finally {
      await opened.close();
    }
  });
}

/**
 * Reads what the suite runs against: a factory alone is a user store's.
 *
 * @internal
 */
export function conformanceTargets(
  targets: StoreFactory | StoreConformanceTargets,
): StoreConformanceTargets {
  return typeof targets === 'function' ? { users: targets } : targets;
}

/**
 * Runs the store conformance suite, one fresh store per case, with no test runner (for
 * `node:test`, a script, or a health check of a custom store): the user cases, the group
 * cases when the user store has `groups`, the event log and subscriber cases when it has
 * `events` and `subscriptions`, and the host-type cases on each resource store given. A factory alone is a user store's.
 *
 * @example
 * ```ts
 * const results = await runStoreConformance({
 *   users: () => new MyUserStore(),
 *   resourceTypes: { Class: () => new MyClassStore() },
 * });
 * const failed = results.filter((r) => r.status === 'failed');
 * if (failed.length > 0) throw new Error(failed.map((r) => r.id).join(', '));
 * ```
 */
export async function runStoreConformance(
  targets: StoreFactory | StoreConformanceTargets,
  options: StoreConformanceOptions = {},
): Promise<StoreConformanceResult[]> {
  const { users, resourceTypes = {} } = conformanceTargets(targets);
  const results: StoreConformanceResult[] = [];
  if (users)
    for (const testCase of storeConformanceCases)
      results.push(await runStoreConformanceCase(testCase, users, options));
  for (const [store, factory] of Object.entries(resourceTypes))
    for (const testCase of resourceStoreCases)
      results.push({ ...(await runResourceStoreCase(testCase, factory, options)), store });
  return results;
}

/**
 * Runs every host-type case on a fresh store from `factory`.
 *
 * @deprecated Use `runStoreConformance({ resourceTypes: { Name: factory } })`, which runs
 *   every store of a service in one suite.
 * @example
 * ```ts
 * const results = await runResourceStoreConformance(() => new MyClassStore());
 * ```
 */
export function runResourceStoreConformance(
  factory: ResourceStoreFactory,
  options: StoreConformanceOptions = {},
): Promise<StoreConformanceResult[]> {
  return runStoreConformance({ resourceTypes: { ResourceStore: factory } }, options);
}
