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
export { compileSort } from './compile-sort.js';
export type { ResourceComparator } from './compile-sort.js';
export type { FilterPredicate } from './compile-filter.js';
export { matchesFilter } from './matches-filter.js';
export { isPresentValue } from './compile-comparison.js';
export { resolveFilterPath, SCHEMAS_ATTRIBUTE } from './resolve-filter-path.js';
export type { FilterTarget } from './resolve-filter-path.js';
export { parseDateTime } from '../schema/date-time.js';
