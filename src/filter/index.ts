/**
 * scimkit/filter: the filter engine (RFC 7644 §3.4.2.2), pure and synchronous: the parser (text
 * to AST), the checker and the in-memory evaluator and sorter, which resolve paths through a
 * compiled resource type (`compileResourceType`, `userResourceType` from `scimkit`), and the
 * stringifier. A custom store receives filters as this AST (`ListQuery.filter`).
 *
 * @module
 * @example
 * ```ts
 * import { userResourceType } from 'scimkit';
 * import { compileFilter, parseFilter } from 'scimkit/filter';
 *
 * const isWork = compileFilter(parseFilter('emails[type eq "work"]'), userResourceType());
 * const workers = users.filter(isWork);
 * ```
 */
export type {
  AttributePath,
  CompareFilter,
  CompareOperator,
  Filter,
  FilterValue,
  LogicalFilter,
  NotFilter,
  PresentFilter,
  ValuePathFilter,
} from './ast.js';
export {
  parseFilter,
  DEFAULT_MAX_FILTER_DEPTH,
  DEFAULT_MAX_FILTER_LENGTH,
} from './parse-filter.js';
export type { ParseFilterOptions } from './parse-filter.js';
export { stringifyFilter, stringifyAttributePath } from './stringify-filter.js';
export { checkFilter } from './check-filter.js';
export { compileFilter } from './compile-filter.js';
export { WorkMeter, WORK_COSTS } from './work-meter.js';
export { filterWorkMeter, DEFAULT_MAX_FILTER_WORK } from './filter-work-meter.js';
export type { FilterPredicate } from './compile-filter.js';
export { compileSort } from './compile-sort.js';
export type { ResourceComparator } from './compile-sort.js';
export { matchesFilter } from './matches-filter.js';
export { isPresentValue } from './compile-comparison.js';
export { parseDateTime } from '../schema/date-time.js';
