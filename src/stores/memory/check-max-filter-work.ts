import { ScimConfigError } from '../../errors/index.js';
import { DEFAULT_MAX_FILTER_WORK } from '../../filter/filter-work-meter.js';

/**
 * Reads a memory store's `maxFilterWork` option: a number > 0 (`Infinity` allowed), default
 * `DEFAULT_MAX_FILTER_WORK`.
 *
 * @throws ScimConfigError naming the store when it is anything else.
 * @internal
 */
export function checkMaxFilterWork(store: string, value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_FILTER_WORK;
  if (typeof value === 'number' && value > 0) return value;
  throw new ScimConfigError(
    `${store}: maxFilterWork must be a number > 0 or Infinity (got ${String(value)}).`,
  );
}
