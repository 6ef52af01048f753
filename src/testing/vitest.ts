/**
 * Runs the store conformance suite under vitest: one `it` per case, a fresh store each.
 *
 * @module
 * @example
 * ```ts
 * import { describeStoreConformance } from 'scimkit/testing/vitest';
 * import { MyClassStore, MyUserStore } from './my-stores.js';
 *
 * describeStoreConformance('my stores', {
 *   users: () => new MyUserStore(),
 *   resourceTypes: { Class: () => new MyClassStore() },
 * });
 * ```
 */
import { describe, it } from 'vitest';
import { storeConformanceCases } from './cases/index.js';
import { resourceStoreCases } from './resource-store-cases.js';
import { runResourceStoreCase } from './run-resource-store-case.js';
import { conformanceTargets, runStoreConformanceCase } from './run-store-conformance.js';
import type {
  ResourceStoreFactory,
  StoreConformanceOptions,
  StoreConformanceResult,
  StoreConformanceTargets,
  StoreFactory,
} from './types.js';

/**
 * Declares a vitest `describe` block named `name` with one test per conformance case, each on
 * a fresh store: the user cases, the group cases when the user store has `groups`, the event
 * log and subscriber cases when it has `events` and `subscriptions`, and, in a block per resource store given, the host-type cases.
 * A factory alone is a user store's. Cases listed in `options.skip`, and cases that do not
 * apply (a filter form the store does not declare, a missing back door), are reported as
 * skipped.
 */
export function describeStoreConformance(
  name: string,
  targets: StoreFactory | StoreConformanceTargets,
  options: StoreConformanceOptions = {},
): void {
  const { users, resourceTypes = {} } = conformanceTargets(targets);
  describe(name, () => {
    if (users) userCases(users, options);
    for (const [store, factory] of Object.entries(resourceTypes))
      describe(store, () => resourceCases(factory, options));
  });
}

/**
 * Declares a vitest `describe` block named `name` with one test per host-type case, each on a
 * fresh store from `factory`.
 *
 * @deprecated Use `describeStoreConformance(name, { resourceTypes: { Name: factory } })`,
 *   which runs every store of a service in one suite.
 * @example
 * ```ts
 * describeResourceStoreConformance('ClassStore', () => new ClassStore(pool));
 * ```
 */
export function describeResourceStoreConformance(
  name: string,
  factory: ResourceStoreFactory,
  options: StoreConformanceOptions = {},
): void {
  describe(name, () => resourceCases(factory, options));
}

/** Declares one test per user, group, event log and subscriber case. */
function userCases(factory: StoreFactory, options: StoreConformanceOptions): void {
  for (const testCase of storeConformanceCases)
    declareCase(testCase, options, () => runStoreConformanceCase(testCase, factory, options));
}

/** Declares one test per host-type case. */
function resourceCases(factory: ResourceStoreFactory, options: StoreConformanceOptions): void {
  for (const testCase of resourceStoreCases)
    declareCase(testCase, options, () => runResourceStoreCase(testCase, factory, options));
}

/**
 * Declares the test of one case: a case named in `options.skip` is declared skipped, with the
 * reason in its title; a skipped outcome is vitest's skip, a failure its error.
 */
function declareCase(
  testCase: { readonly id: string; readonly title: string },
  options: StoreConformanceOptions,
  settle: () => Promise<StoreConformanceResult>,
): void {
  const title = `${testCase.id}: ${testCase.title}`;
  const skipped = options.skip?.[testCase.id];
  if (skipped !== undefined) {
    it.skip(`${title} (${skipped})`, () => {});
    return;
  }
  it(title, async (context) => {
    const result = await settle();
    if (result.status === 'skipped') context.skip(result.reason);
    if (result.status === 'failed') throw result.error;
  });
}
