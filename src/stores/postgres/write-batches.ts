/** How {@link WriteBatches} writes: alone, or several in one statement. */
export interface BatchWriter<T, R> {
  /** Writes one item in its own statement, as the store would without batches. */
  one(item: T): Promise<R>;
  /**
   * Writes several items in one statement and tells, for each in order, whether it wrote it;
   * one it left out (a unique key taken, a stale version, no such row) is then written alone.
   * Rejects as a whole.
   */
  many(items: readonly T[]): Promise<readonly boolean[]>;
  /** What {@link WriteBatches.write} answers for an item a shared statement wrote. */
  readonly written: R;
  /** About how many bytes an item sends, to keep one statement's parameter bounded. */
  sizeOf(item: T): number;
  /** The row an item writes: two items of one row never share a statement. */
  rowOf(item: T): string;
}

/** A write waiting for its statement. */
interface Waiting<T, R> {
  readonly item: T;
  readonly resolve: (result: R) => void;
  readonly reject: (error: unknown) => void;
}

/** The most statements of one kind of write of a store running at once. */
const STATEMENTS_AT_ONCE = 2;
/** The most writes, and about the most bytes, one statement takes. */
const MOST_WRITES = 100;
const MOST_BYTES = 1 << 20;

/**
 * Writes concurrent writes of one kind (a store's creates, its replaces) several to a statement:
 * a speed device of the PostgreSQL store, see `bench/DEVICES.md`. At most two such statements
 * run at once; the writes that arrive meanwhile wait, and the next statement takes all of them
 * that fit, never two of one row. The database then commits and flushes them once instead of
 * once each, which is much of what a write costs it.
 *
 * Each write keeps the outcome it has alone:
 * - a write that arrives while fewer than two statements run is written alone, by the store's
 *   own statement;
 * - a shared statement writes each of its writes entirely or not at all (its row, its events,
 *   its count), and exactly when the write would succeed alone at that moment;
 * - a write the statement left out is written alone after it, which answers what it would have
 *   alone: a uniqueness error, a version conflict, "not found", or success when what stood in
 *   its way changed meanwhile;
 * - when the server refuses the statement for what it holds or for the way it ran into another
 *   (SQLSTATE classes 22, 23 and 54: a value, a constraint, a limit; 40: a deadlock or a
 *   serialization failure), it wrote none of them and each is written alone, so one write's
 *   fault is never another's; any other failure (the connection, the timeout) is the failure
 *   each of them meets.
 */
export class WriteBatches<T, R> {
  readonly #writer: BatchWriter<T, R>;
  #waiting: Waiting<T, R>[] = [];
  #running = 0;

  constructor(writer: BatchWriter<T, R>) {
    this.#writer = writer;
  }

  /** Writes an item, alone or with others that wait at the same time. */
  write(item: T): Promise<R> {
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
   * The writes of the next statement: the first waiting, and those after it that fit and write
   * a row none of them writes; the others keep their place.
   */
  #next(): Waiting<T, R>[] {
    const batch: Waiting<T, R>[] = [];
    const rest: Waiting<T, R>[] = [];
    const rows = new Set<string>();
    let bytes = 0;
    for (const waiting of this.#waiting) {
      const { item } = waiting;
      const row = this.#writer.rowOf(item);
      const size = this.#writer.sizeOf(item);
      const fits =
        batch.length === 0 ||
        (batch.length < MOST_WRITES && bytes + size <= MOST_BYTES && !rows.has(row));
      if (!fits) {
        rest.push(waiting);
        continue;
      }
      batch.push(waiting);
      rows.add(row);
      bytes += size;
    }
    this.#waiting = rest;
    return batch;
  }

  async #send(batch: readonly Waiting<T, R>[]): Promise<void> {
    if (batch.length === 1) return this.#alone(batch[0] as Waiting<T, R>);
    let written: readonly boolean[];
    try {
      written = await this.#writer.many(batch.map((w) => w.item));
    } catch (error) {
      if (!wroteNothingForItsValues(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      written = [];
    }
    await Promise.all(
      batch.map((w, i) => {
        if (written[i] !== true) return this.#alone(w);
        w.resolve(this.#writer.written);
        return undefined;
      }),
    );
  }

  async #alone(w: Waiting<T, R>): Promise<void> {
    try {
      w.resolve(await this.#writer.one(w.item));
    } catch (error) {
      w.reject(error);
    }
  }
}

/**
 * Whether the server refused a statement for the values it holds or for running into another,
 * having written nothing: SQLSTATE class 22 (data exception), 23 (integrity constraint
 * violation), 40 (transaction rollback: a deadlock, a serialization failure) or 54 (program
 * limit exceeded).
 */
function wroteNothingForItsValues(error: unknown): boolean {
  const code =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(22|23|40|54)/.test(code);
}
