import type { ScimError } from '../errors/index.js';

/**
 * What each kind of work costs, in work units. One unit is about the time it takes to compare
 * or lower-case one ASCII character; the other weights make each kind of work cost about its
 * time on that scale, so a budget in units bounds the time a request holds the event loop
 * whatever mix of work it asks for.
 */
export const WORK_COSTS = {
  /**
   * Visiting one value or one term of a filter: reading it, testing it, copying it into a list,
   * indexing it, comparing two of them.
   */
  visit: 16,
  /**
   * Writing one value of a list: a new object (and the garbage of the one it replaces), the
   * index entries kept up to date.
   */
  write: 256,
  /** One character of text compared, searched or parsed. */
  char: 1,
  /**
   * One character of non-ASCII text folded for a caseIgnore comparison (NFC normalisation and
   * Unicode case folding of each code point: about twenty times the work of ASCII).
   */
  foldChar: 20,
} as const;

/**
 * Returns what reading `text` once costs: its characters, or when it is folded for a caseIgnore
 * comparison and holds non-ASCII characters, the dearer folding of each.
 */
export function textCost(text: string, folded: boolean): number {
  if (folded) {
    for (let i = 0; i < text.length; i++)
      if (text.charCodeAt(i) > 0x7f) return text.length * WORK_COSTS.foldChar;
  }
  return text.length * WORK_COSTS.char;
}

/**
 * Returns what comparing a JSON value member by member may cost at most: a visit per value and
 * the characters of its strings.
 */
export function jsonCost(value: unknown): number {
  if (typeof value === 'string') return WORK_COSTS.visit + value.length * WORK_COSTS.char;
  if (value === null || typeof value !== 'object') return WORK_COSTS.visit;
  let cost = WORK_COSTS.visit;
  if (Array.isArray(value)) for (const item of value) cost += jsonCost(item);
  else for (const [key, member] of Object.entries(value)) cost += key.length + jsonCost(member);
  return cost;
}

/**
 * Counts the work units of one request (see {@link WORK_COSTS}) against its budget and stops
 * the request the moment the budget is spent: callers spend before they do the work, so a
 * request over budget is refused after about the budget's worth of work, never more. PATCH
 * (`maxPatchWork`) and the memory stores' filters and sorts (`maxFilterWork`) each bring one.
 */
export class WorkMeter {
  #left: number;

  /**
   * @param limit - The budget, in work units.
   * @param exceeded - Builds the error the request answers once the budget is spent (it names
   *   the limit).
   */
  constructor(
    readonly limit: number,
    private readonly exceeded: (limit: number) => ScimError,
  ) {
    this.#left = limit;
  }

  /** The units spent so far. */
  get spent(): number {
    return this.limit - this.#left;
  }

  /**
   * Records `units` of work about to be done.
   *
   * @throws ScimError the `exceeded` error once the budget is spent; the caller discards what it
   *   built, so nothing is written.
   */
  spend(units: number): void {
    this.#left -= units;
    if (this.#left < 0) throw this.exceeded(this.limit);
  }
}
