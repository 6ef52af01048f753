import { ScimError } from '../../errors/index.js';
import { boundedUtf8Length } from '../../json/utf8-length.js';

/** What the refusal of an answer too large tells the client to do instead. */
const WAY_THROUGH =
  'Ask for less: leave large attributes out with "excludedAttributes" (for a group, ' +
  '"excludedAttributes=members"), and find memberships with a filter such as ' +
  '`members.value eq "<id>"` on /Groups, which answers the groups without their whole lists.';

/** The shared bound an allowance takes from (a `ResponseBudget`). */
export interface BudgetPool {
  /** The largest answer, in bytes. */
  readonly maxBytes: number;
  /** Bytes no answer holds now. */
  readonly free: number;
  /** Records `bytes` more held (positive) or given back (negative). */
  hold(bytes: number): void;
}

/**
 * The bytes one answer may take of a `ResponseBudget`: at most `maxBytes` in all, and no
 * more than the budget has free. What it takes is held until {@link ResponseAllowance.close},
 * which the builder of the answer calls once the text is built (the adapter then holds the
 * text, as long as its connection lets it).
 *
 * Two kinds of holding: `reserve` is provisional, for what is read before the text is built
 * (a group's members, read page by page); `keep` fits the final texts of the answer's parts
 * and gives back what was reserved. Text is counted in UTF-8 bytes.
 */
export class ResponseAllowance {
  #kept = 0;
  #reserved = 0;

  constructor(private readonly budget: BudgetPool) {}

  /** The most this answer may hold in all now: its limit, or less when others hold the rest. */
  get capacity(): number {
    const held = this.#kept + this.#reserved;
    return Math.min(this.budget.maxBytes, held + this.budget.free);
  }

  /** Bytes this answer holds now. */
  get held(): number {
    return this.#kept + this.#reserved;
  }

  /**
   * Holds `bytes` more, provisionally, when they fit; `false` (nothing held) when they do not.
   */
  reserve(bytes: number): boolean {
    if (this.held + bytes > this.capacity) return false;
    this.#reserved += bytes;
    this.budget.hold(bytes);
    return true;
  }

  /**
   * Gives back what was reserved, then keeps the leading parts of `sizes` (bytes each) that
   * fit together with `overhead` (the answer's own members, separators), and returns how many.
   * The overhead is kept even when no part fits.
   */
  keep(sizes: readonly number[], overhead: number): number {
    this.#giveBack(this.#reserved);
    this.#reserved = 0;
    const room = this.capacity - this.#kept;
    let total = overhead;
    let count = 0;
    for (const size of sizes) {
      if (total + size > room) break;
      total += size;
      count++;
    }
    const taken = Math.min(total, room);
    this.#kept += taken;
    this.budget.hold(taken);
    return count;
  }

  /**
   * The error of an answer whose first part (`bytes`) does not fit: 400 `tooMany` when it would
   * exceed the answer's limit on its own, 503 with `Retry-After` when only the answers being
   * built by other requests leave too little room now.
   */
  refusal(bytes: number): ScimError {
    const limit = this.budget.maxBytes;
    if (this.#kept + bytes > limit) {
      return budgetRefusal(
        `The answer would exceed ${limit} bytes, the most this server answers at once ` +
          `(maxResponseBytes). ${WAY_THROUGH}`,
        400,
      );
    }
    return budgetRefusal(
      'The server is building too many large answers at once (maxResponseBytesInFlight); ' +
        'try again shortly, or ask for less: "excludedAttributes=members" on /Groups.',
      503,
    );
  }

  /** Gives back everything held. Idempotent. */
  close(): void {
    this.#giveBack(this.#kept + this.#reserved);
    this.#kept = 0;
    this.#reserved = 0;
  }

  #giveBack(bytes: number): void {
    if (bytes > 0) this.budget.hold(-bytes);
  }
}

/**
 * Keeps the whole text of an answer of one part (a single resource) in `allowance`, or throws
 * its refusal (see {@link ResponseAllowance.refusal}).
 */
export function keepWhole(allowance: ResponseAllowance, text: string): void {
  const bytes = boundedUtf8Length(text, allowance.capacity);
  if (allowance.keep([bytes], 0) === 0) throw allowance.refusal(bytes);
}

// An allowance's refusal of an answer too large, told apart from other errors of its status.
class BudgetRefusal extends ScimError {}

function budgetRefusal(detail: string, status: 400 | 503): ScimError {
  return status === 400
    ? new BudgetRefusal(400, detail, { scimType: 'tooMany' })
    : new BudgetRefusal(503, detail, { headers: { 'retry-after': '1' } });
}

/** Tells whether `error` is an allowance's refusal of an answer too large (see `refusal`). */
export function isBudgetRefusal(error: unknown): boolean {
  return error instanceof BudgetRefusal;
}
