/**
 * Runs the store conformance suite under vitest: one `it` per case, a fresh store each.
 *
 * @module
 * @example
 * ```ts
 * import { describeStoreConformance } from 'scimkit/testing/vitest';
 * import { MyUserStore } from './my-user-store.js';
 *
 * describeStoreConformance('MyUserStore', () => new MyUserStore());
 * ```
 */
import { describe, it } from 'vitest';
import { CaseSkipped } from './assertions.js';
import { storeConformanceCases } from './cases/index.js';
import { openStoreTestContext } from './store-test-context.js';
import type { StoreConformanceOptions, StoreFactory } from './types.js';

/**
 * Declares a vitest `describe` block named `name` with one test per conformance case, each on
 * a fresh store from `factory`. Cases listed in `options.skip`, and cases that do not apply
 * (a filter form the store does not declare, a missing back door), are reported as skipped.
 */
export function describeStoreConformance(
  name: string,
  factory: StoreFactory,
  options: StoreConformanceOptions = {},
): void {
  describe(name, () => {
    for (const testCase of storeConformanceCases) {
      const title = `${testCase.id}: ${testCase.title}`;
      if (options.skip?.[testCase.id] !== undefined) {
        it.skip(`${title} (${options.skip[testCase.id]})`, () => {});
        continue;
      }
      it(title, async (context) => {
        const opened = await openStoreTestContext(factory);
        try {
          await testCase.run(opened.ctx);
        } catch (error) {
          if (error instanceof CaseSkipped) context.skip(error.reason);
          throw error;
        } finally {
          await opened.close();
        }
      });
    }
  });
}
