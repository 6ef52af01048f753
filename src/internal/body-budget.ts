/**
 * The bytes of request bodies one adapter may hold at once while it reads them, shared by all
 * of its requests: without it, each stalled upload may hold up to `maxBodyBytes`, and a
 * thousand of them a thousand times that.
 */
export class BodyBudget {
  #free: number;

  constructor(readonly max: number) {
    this.#free = max;
  }

  /** Reserves `bytes`; returns false, reserving nothing, when that much is not free. */
  take(bytes: number): boolean {
    if (bytes > this.#free) return false;
    this.#free -= bytes;
    return true;
  }

  /** Gives back bytes reserved with {@link BodyBudget.take}. */
  give(bytes: number): void {
    this.#free = Math.min(this.max, this.#free + bytes);
  }

  /** The bytes reserved now. */
  get used(): number {
    return this.max - this.#free;
  }
}
