import { ScimConfigError } from '../../errors/index.js';
import { ResponseAllowance, type BudgetPool } from './response-allowance.js';

/** Default of `maxResponseBytes`: 16 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** How many largest answers the default `maxResponseBytesInFlight` lets be built at once. */
export const DEFAULT_RESPONSES_IN_FLIGHT = 4;

/**
 * The byte budget of a service's answers: each answer is built up to `maxBytes`, and every
 * answer being built at the same moment shares `maxInFlight`, so that concurrent large answers
 * cannot exhaust the heap. One per `createScim`: the bound holds per service, which is per
 * process as a rule.
 */
export class ResponseBudget implements BudgetPool {
  #used = 0;

  /**
   * @param maxBytes - the largest answer, in bytes of its JSON text (`maxResponseBytes`).
   * @param maxInFlight - the bytes every answer being built may hold at once
   *   (`maxResponseBytesInFlight`).
   */
  constructor(
    readonly maxBytes: number,
    readonly maxInFlight: number,
  ) {}

  /** Bytes no answer holds now. */
  get free(): number {
    return Math.max(0, this.maxInFlight - this.#used);
  }

  /** Opens the allowance of one answer; it holds nothing until it takes. */
  open(): ResponseAllowance {
    return new ResponseAllowance(this);
  }

  /** Records `bytes` more held (positive) or given back (negative); for allowances only. */
  hold(bytes: number): void {
    this.#used += bytes;
  }
}

/**
 * Builds the budget of `createScim`'s `maxResponseBytes` and `maxResponseBytesInFlight`.
 *
 * @throws ScimConfigError when either is not a positive whole number.
 */
export function responseBudget(options: {
  readonly maxResponseBytes?: number | undefined;
  readonly maxResponseBytesInFlight?: number | undefined;
}): ResponseBudget {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const inFlight = options.maxResponseBytesInFlight ?? DEFAULT_RESPONSES_IN_FLIGHT * maxBytes;
  for (const [name, value] of [
    ['maxResponseBytes', maxBytes],
    ['maxResponseBytesInFlight', inFlight],
  ] as const) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new ScimConfigError(`createScim: ${name} must be a positive whole number of bytes.`);
  }
  return new ResponseBudget(maxBytes, inFlight);
}
