import { scimErrors } from '../errors/index.js';
import { WorkMeter } from './work-meter.js';

/**
 * How many work units (see `WORK_COSTS`) evaluating one list request's filter and sort over the
 * resources a memory store reads may spend by default: about 0.1 s of work on a small server.
 */
export const DEFAULT_MAX_FILTER_WORK = 20_000_000;

/**
 * Builds the meter of one list request evaluated in memory: every resource a filter or sort
 * reads, every term it tests and every character it compares or folds, against
 * `maxFilterWork`. Past it the request answers 400 `tooMany` naming the limit (RFC 7644 §3.12:
 * the filter asks for more than the server is willing to calculate), having read nothing more.
 *
 * @example
 * ```ts
 * const meter = filterWorkMeter(5_000_000);
 * const test = compileFilter(filter, type, meter);
 * const found = resources.filter((r) => test(r)); // throws 400 tooMany past the budget
 * ```
 */
export function filterWorkMeter(limit: number = DEFAULT_MAX_FILTER_WORK): WorkMeter {
  return new WorkMeter(limit, (max) =>
    scimErrors.tooMany(
      `The filter and sort would need more than ${max.toLocaleString('en-US')} units of work ` +
        '(maxFilterWork) over the resources they read. Narrow the filter with an equality the ' +
        'store answers from an index (for users: id, userName or externalId eq "…"), use fewer ' +
        'or shorter terms, or leave out sortBy.',
    ),
  );
}
