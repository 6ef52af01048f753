/** What a shared statement answers for an item it left out: that item then runs alone. */
export const LEFT_OUT: unique symbol = Symbol('left out');

/** How {@link StatementBatches} runs its items: alone, or several in one statement. */
export interface BatchedStatement<T, R> {
  /** Runs one item in its own statement, as the store would without batches. */
  one(item: T): Promise<R>;
  /**
   * Runs several items in one statement and answers each, in order, or {@link LEFT_OUT} for one
   * it did not write (a unique key taken, a stale version, no such row), which then runs alone.
   * Rejects as a whole.
   */
  many(items: readonly T[]): Promise<readonly (R | typeof LEFT_OUT)[]>;
  /** About how many bytes an item sends, to keep one statement's parameter bounded. */
  sizeOf(item: T): number;
  /**
   * The row an item writes: two items of one row never share a statement. Reads leave it out:
   * reads of one row share a statement, and `many` answers each of them.
   */
  rowOf?(item: T): string;
  /**
   * Whether an item that arrives alone also runs `many`, rather than `one`: for writes that may
   * wait for a row another transaction holds, which `many` waits for only briefly (its items
   * then run `one`, outside the kind's turn), where `one` would hold the turn while it waits.
   */
  readonly aloneShared?: boolean;
}

/** An item waiting for its statement. */
interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The most statements of one kind of a store running at once. One: where the database shares
 * a few cores with the application, fewer and fuller statements cost the cores less for each
 * request than two half-full ones (figures in `bench/DEVICES.md`).
 */
const STATEMENTS_AT_ONCE = 1;
/** The most items, and about the most bytes, one statement takes. */
const MOST_ITEMS = 100;
const MOST_BYTES = 1 << 20;

/**
 * Runs concurrent statements of one kind (a store's reads of one resource by id, its lookups
 * by a unique key, its creates, its replaces) several to a statement: a speed device of the
 * PostgreSQL store, see `bench/DEVICES.md`. One such statement runs at a time; the items that
 * arrive meanwhile wait, and the next statement takes all of them that fit, never two of
 * one row. The database then starts, runs and commits one statement for them instead of one
 * each, which is much of what a read or a write costs it.
 *
 * Each item keeps the outcome it has alone:
 * - an item that arrives while no statement of its kind runs runs alone, in the store's own
 *   statement;
 * - a read answers the state of a statement that began after the read arrived, as alone;
 * - a shared statement writes each of its writes entirely or not at all (its row, its events,
 *   its count), and exactly when the write would succeed alone at that moment;
 * - a write the statement left out runs alone after it, which answers what it would have
 *   alone: a uniqueness error, a version conflict, "not found", or success when what stood in
 *   its way changed meanwhile; it runs outside the kind's turn, so that a write that waits for
 *   a row another transaction holds holds back no other;
 * - when the server refuses the statement for what it holds or for the way it ran into another
 *   (SQLSTATE classes 22, 23 and 54: a value, a constraint, a limit; 40: a deadlock or a
 *   serialization failure; 55P03: a row held past the statement's lock wait), it wrote none of
 *   them and each item runs alone, so one item's fault is never another's; any other failure
 *   (the connection, the timeout) is the failure each of them meets.
 */
export class StatementBatches<T, R> {
  readonly #statement: BatchedStatement<T, R>;
  #waiting: Waiting<T, R>[] = [];
  #running = 0;

  constructor(statement: BatchedStatement<T, R>) {
    this.#statement = statement;
  }

  /** Runs an item, alone or with others that wait at the same time. */
  run(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#waiting.push({ item, resolve, reject });
      this.#start();
    });
  }

  #start(): void {
    while (this.#running < STATEMENTS_AT_ONCE && this.#waiting.length > 0) {
      this.#running++;
      void this.#send(this.#next()).finally(() => {
        this.#running--;
        this.#start();
      });
    }
  }

  /**
   * The items of the next statement: the first waiting, and those after it that fit and are of
   * a row none of them is of; the others keep their place.
   */
  #next(): Waiting<T, R>[] {
    const batch: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    const rows = new Set<string>();
    let bytes = 0;
    for (const waiting of this.#waiting) {
      const { item } = waiting;
      const row = this.#statement.rowOf?.(item);
      const size = this.#statement.sizeOf(item);
      const fits =
        batch.length === 0 ||
        (batch.length < MOST_ITEMS &&
          bytes + size <= MOST_BYTES &&
          (row === undefined || !rows.has(row)));
      if (!fits) {
        rest.push(waiting);
        continue;
      }
      batch.push(waiting);
      if (row !== undefined) rows.add(row);
      bytes += size;
    }
    this.#waiting = rest;
    return batch;
  }

  async #send(batch: readonly Waiting<T, R>[]): Promise<void> {
    if (batch.length === 1 && this.#statement.aloneShared !== true)
      return this.#alone(batch[0] as Waiting<T, R>);
    let answers: readonly (R | typeof LEFT_OUT)[];
    try {
      answers = await this.#statement.many(batch.map((w) => w.item));
    } catch (error) {
      if (!wroteNothingForItsValues(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      answers = batch.map(() => LEFT_OUT);
    }
    // What the statement left out runs alone, after it but outside the kind's turn: a write
    // that waits for a row does not hold back the statements of the writes after it.
    batch.forEach((w, i) => {
      const answer = answers[i] as R | typeof LEFT_OUT;
      if (answer === LEFT_OUT) void this.#alone(w);
      else w.resolve(answer);
    });
  }

  async #alone(w: Waiting<T, R>): Promise<void> {
    try {
      w.resolve(await this.#statement.one(w.item));
    } catch (error) {
      w.reject(error);
    }
  }
}

/** SQLSTATE of a lock wait that ran past `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * Whether the server refused a statement for the values it holds or for running into another,
 * having written nothing: SQLSTATE class 22 (data exception), 23 (integrity constraint
 * violation), 40 (transaction rollback: a deadlock, a serialization failure) or 54 (program
 * limit exceeded), or 55P03 (a row another transaction held for longer than the statement
 * waits).
 */
function wroteNothingForItsValues(error: unknown): boolean {
  const code =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (/^(22|23|40|54)/.test(code) || code === LOCK_NOT_AVAILABLE);
}
