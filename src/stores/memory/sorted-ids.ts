/**
 * Keeps ids in ascending string order, so a page is a slice and a lookup a binary search.
 *
 * Ids are time-ordered and almost always arrive in increasing order, so an insert is usually
 * an append; the rare out-of-order insert and every removal cost one binary search plus an
 * array splice (a memmove, not a scan in JavaScript).
 *
 * @internal
 */
export class SortedIds {
  readonly #ids: string[] = [];

  /** The number of ids kept. */
  get size(): number {
    return this.#ids.length;
  }

  /** Adds an id that is not yet present. */
  insert(id: string): void {
    const ids = this.#ids;
    const last = ids[ids.length - 1];
    if (last === undefined || last < id) {
      ids.push(id);
      return;
    }
    ids.splice(this.#lowerBound(id), 0, id);
  }

  /** Removes an id; does nothing when it is absent. */
  remove(id: string): void {
    const at = this.#lowerBound(id);
    if (this.#ids[at] === id) this.#ids.splice(at, 1);
  }

  /** Returns up to `count` ids starting at the 0-based position `offset`. */
  slice(offset: number, count: number): string[] {
    return this.#ids.slice(offset, offset + count);
  }

  /** Iterates every id in ascending order. */
  values(): IterableIterator<string> {
    return this.#ids.values();
  }

  /** Returns the position of the first id not less than `id`. */
  #lowerBound(id: string): number {
    const ids = this.#ids;
    let low = 0;
    let high = ids.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((ids[mid] as string) < id) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
