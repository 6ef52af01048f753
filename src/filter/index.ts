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
export { SCHEMAS_ATTRIBUTE } from '../schema/schemas-attribute.js';
export { compileResourceType } from '../schema/resource-type.js';
export type {
  CompiledResourceType,
  ResolvedAttribute,
  ResourceTypeDefinition,
} from '../schema/resource-type.js';
export { userResourceType } from '../schema/user-resource-type.js';
export type { UserResourceTypeOptions } from '../schema/user-resource-type.js';
export { parseDateTime } from '../schema/date-time.js';
