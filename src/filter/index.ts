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
export { parseFilter } from './parse-filter.js';
