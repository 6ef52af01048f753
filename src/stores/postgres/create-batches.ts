/** How {@link CreateBatches} writes creates: alone, or several in one statement. */
export interface CreateWriter<T> {
  /** Writes one create in its own statement, as the store would without batches. */
  one(item: T): Promise<void>;
  /**
   * Writes several creates in one statement and tells, for each in order, whether it was
   * stored; one it left out (a unique key taken) is then written alone. Rejects as a whole.
   */
  many(items: readonly T[]): Promise<readonly boolean[]>;
  /** About how many bytes a create sends, to keep one statement's parameter bounded. */
  sizeOf(item: T): number;
}

/** A create waiting for its statement. */
interface Waiting<T> {
  readonly item: T;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The most create statements of one store running at once. */
const STATEMENTS_AT_ONCE = 2;
/** The most creates, and about the most bytes, one statement writes. */
const MOST_CREATES = 100;
const MOST_BYTES = 1 << 20;

/**
 * Writes concurrent creates of one store several to a statement (a speed device of the
 * PostgreSQL store, see `bench/DEVICES.md`). At most two create statements of the store run at
 * once; the creates that arrive meanwhile wait, and the next statement writes all of them
 * that fit. The database then commits, flushes and indexes them in one statement instead of
 * one each, which is most of what a create costs it.
 *
 * Each create keeps the outcome it has alone:
 * - a create that waits for no other is written alone, by the store's own statement;
 * - the batch's statement stores a create exactly when its unique keys are free, and records
 *   its events and counts it in the same statement, so a create is all there or not at all;
 * - a create the statement left out (its userName taken, by a create of the tenant before it
 *   or of the same batch) is written alone after it, which answers what it would have alone:
 *   the uniqueness error, or success when the user holding the name was deleted meanwhile;
 * - when the server refuses the statement for what it holds (SQLSTATE classes 22, 23 and 54:
 *   a value, a constraint, a limit), it wrote none of them and each is written alone, so one
 *   create's fault is never another's; any other failure (the connection, the timeout) is the
 *   failure each of them meets.
 */
export class CreateBatches<T> {
  readonly #writer: CreateWriter<T>;
  readonly #waiting: Waiting<T>[] = [];
  #running = 0;

  constructor(writer: CreateWriter<T>) {
    this.#writer = writer;
  }

  /** Writes a create, alone or with others that wait at the same time. */
  write(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
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

  /** The creates of the next statement: the first waiting, and those after it that fit. */
  #next(): Waiting<T>[] {
    let bytes = 0;
    let count = 0;
    for (const { item } of this.#waiting) {
      bytes += this.#writer.sizeOf(item);
      if (count === MOST_CREATES || (count > 0 && bytes > MOST_BYTES)) break;
      count++;
    }
    return this.#waiting.splice(0, count);
  }

  async #send(batch: readonly Waiting<T>[]): Promise<void> {
    if (batch.length === 1) return this.#alone(batch[0] as Waiting<T>);
    let stored: readonly boolean[];
    try {
      stored = await this.#writer.many(batch.map((w) => w.item));
    } catch (error) {
      if (!refusedForItsValues(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      stored = [];
    }
    await Promise.all(
      batch.map((w, i) => {
        if (stored[i] !== true) return this.#alone(w);
        w.resolve();
        return undefined;
      }),
    );
  }

  async #alone(w: Waiting<T>): Promise<void> {
    try {
      await this.#writer.one(w.item);
      w.resolve();
    } catch (error) {
      w.reject(error);
    }
  }
}

/**
 * Whether the server refused a statement for the values it holds, having written nothing:
 * SQLSTATE class 22 (data exception), 23 (integrity constraint violation) or 54 (program limit
 * exceeded).
 */
function refusedForItsValues(error: unknown): boolean {
  const code =
    typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(22|23|54)/.test(code);
}
