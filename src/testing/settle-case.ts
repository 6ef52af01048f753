import { CaseSkipped } from './assertions.js';
import type { StoreConformanceOptions, StoreConformanceResult } from './types.js';

/**
 * Runs one conformance case through `run` and reports its outcome without throwing: skipped
 * when `options.skip` names it (then `run` is never called) or when it skips itself, failed
 * with what it threw, passed otherwise. Every runner, with or without a test runner, reports
 * through this one frame.
 *
 * @internal
 */
export async function settleCase(
  testCase: { readonly id: string; readonly title: string },
  options: StoreConformanceOptions,
  run: () => Promise<void>,
): Promise<StoreConformanceResult> {
  const { id, title } = testCase;
  const skipped = options.skip?.[id];
  if (skipped !== undefined) return { id, title, status: 'skipped', reason: skipped };
  try {
    await run();
    return { id, title, status: 'passed' };
  } catch (error) {
    if (error instanceof CaseSkipped) return { id, title, status: 'skipped', reason: error.reason };
    return { id, title, status: 'failed', error };
  }
}
