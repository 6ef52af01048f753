import { scimErrors } from '../errors/index.js';
import { WorkMeter } from '../filter/work-meter.js';

/**
 * How many work units one PATCH may spend by default (see `WORK_COSTS`): about 0.1 s of work on
 * a small server, whatever mix of copies, lookups, filters and case folding it asks for.
 */
export const DEFAULT_MAX_PATCH_WORK = 20_000_000;

/**
 * Builds the meter of one PATCH: the values it copies, looks up, indexes, tests and writes, and
 * the characters its value filters and same-member checks compare and fold, in work units
 * (`WORK_COSTS`), against `maxPatchWork`. Past it the PATCH answers 400 `invalidValue` naming
 * the limit, and changes nothing.
 */
export function patchWorkMeter(limit: number): WorkMeter {
  // invalidValue, not tooMany: RFC 7644 §3.12 keeps tooMany for filters that yield too many
  // results; here the request as sent is what the server will not process.
  return new WorkMeter(limit, (max) =>
    scimErrors.invalidValue(
      `The PATCH would need more than ${max.toLocaleString('en-US')} units of work ` +
        '(maxPatchWork): its value filters test too many values, or too much text. Send fewer ' +
        'operations per request, or value filters of the form `attr[value eq "…"]`, which are ' +
        'answered from an index.',
    ),
  );
}
