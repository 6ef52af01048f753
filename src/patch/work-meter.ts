import { scimErrors } from '../errors/index.js';

/** How many value visits one PATCH may make by default; see {@link WorkMeter}. */
export const DEFAULT_MAX_PATCH_WORK = 1_000_000;

/**
 * Counts the work of one PATCH in value visits (one value of a multi-valued attribute copied,
 * looked up, tested against a filter or written) and stops the request when it would exceed its
 * budget, so no PATCH can hold the event loop for long, whatever its operations ask for.
 */
export class WorkMeter {
  #left: number;

  constructor(readonly limit: number) {
    this.#left = limit;
  }

  /**
   * Records `visits` value visits.
   *
   * @throws ScimError 400 `invalidValue` naming the limit once the budget is spent; the caller
   *   discards its draft, so nothing is written.
   */
  spend(visits: number): void {
    this.#left -= visits;
    if (this.#left < 0) {
      // invalidValue, not tooMany: RFC 7644 §3.12 keeps tooMany for filters that yield too many
      // results; here the request as sent is what the server will not process.
      throw scimErrors.invalidValue(
        `The PATCH would visit more than ${this.limit.toLocaleString('en-US')} attribute values ` +
          '(maxPatchWork). Send fewer operations per request, or value filters of the form ' +
          '`attr[value eq "…"]`, which are answered from an index.',
      );
    }
  }
}
