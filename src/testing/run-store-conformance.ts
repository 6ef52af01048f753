import { CaseSkipped } from './assertions.js';
import { storeConformanceCases } from './cases/index.js';
import { openStoreTestContext } from './store-test-context.js';
import type {
  StoreConformanceCase,
  StoreConformanceOptions,
  StoreConformanceResult,
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
  const { id, title } = testCase;
  const skipped = options.skip?.[id];
  if (skipped !== undefined) return { id, title, status: 'skipped', reason: skipped };
  const opened = await openStoreTestContext(factory);
  try {
    await testCase.run(opened.ctx);
    return { id, title, status: 'passed' };
  } catch (error) {
    if (error instanceof CaseSkipped) return { id, title, status: 'skipped', reason: error.reason };
    return { id, title, status: 'failed', error };
  } finally {
    await opened.close();
  }
}

/**
 * Runs every store conformance case, one fresh store each, with no test runner: for
 * `node:test`, a script, or a health check of a custom store.
 *
 * @example
 * ```ts
 * const results = await runStoreConformance(() => new MyStore());
 * const failed = results.filter((r) => r.status === 'failed');
 * if (failed.length > 0) throw new Error(failed.map((r) => r.id).join(', '));
 * ```
 */
export async function runStoreConformance(
  factory: StoreFactory,
  options: StoreConformanceOptions = {},
): Promise<StoreConformanceResult[]> {
  const results: StoreConformanceResult[] = [];
  for (const testCase of storeConformanceCases) {
    results.push(await runStoreConformanceCase(testCase, factory, options));
  }
  return results;
}
