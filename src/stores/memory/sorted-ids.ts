/**
 * Keeps ids in ascending string order in blocks of about `blockSize`, so that a page is a
 * slice, and an insert or a removal anywhere moves at most one block rather than the whole
 * list (a single array of 1,000,000 ids spends milliseconds on each delete in its middle).
 *
 * Ids are time-ordered and almost always arrive in increasing order, so an insert is usually
 * an append to the last block. Finding a position is a binary search over the blocks' first
 * ids, then within one block; finding the n-th id walks the block lengths (a thousand numbers
 * for a million ids, negligible next to copying a page).
 *
 * @internal
 */
export class SortedIds {
  readonly #blocks: string[][] = [];
  readonly #blockSize: number;
  #size = 0;

  constructor(blockSize = 1024) {
    this.#blockSize = blockSize;
  }

  /** The number of ids kept. */
  get size(): number {
    return this.#size;
  }

  /** Adds an id that is not yet present. */
  insert(id: string): void {
    const blocks = this.#blocks;
    this.#size += 1;
    const last = blocks[blocks.length - 1];
    if (last === undefined) {
      blocks.push([id]);
      return;
    }
    if ((last[last.length - 1] as string) < id) {
      if (last.length >= this.#blockSize) blocks.push([id]);
      else last.push(id);
      return;
    }
    const at = this.#blockOf(id);
    const block = blocks[at] as string[];
    block.splice(lowerBound(block, id), 0, id);
    if (block.length > 2 * this.#blockSize) blocks.splice(at + 1, 0, block.splice(this.#blockSize));
  }

  /** Removes an id; does nothing when it is absent. */
  remove(id: string): void {
    const blocks = this.#blocks;
    if (blocks.length === 0) return;
    const at = this.#blockOf(id);
    const block = blocks[at] as string[];
    const position = lowerBound(block, id);
    if (block[position] !== id) return;
    block.splice(position, 1);
    this.#size -= 1;
    const next = blocks[at + 1];
    if (block.length === 0) blocks.splice(at, 1);
    else if (next && block.length + next.length <= this.#blockSize) {
      // Merge small neighbours so the number of blocks stays about size / blockSize.
      block.push(...next);
      blocks.splice(at + 1, 1);
    }
  }

  /** Returns up to `count` ids starting at the 0-based position `offset`. */
  slice(offset: number, count: number): string[] {
    const blocks = this.#blocks;
    const found: string[] = [];
    let at = 0;
    let skip = offset;
    while (at < blocks.length && skip >= (blocks[at] as string[]).length) {
      skip -= (blocks[at] as string[]).length;
      at += 1;
    }
    for (; at < blocks.length && found.length < count; at++, skip = 0) {
      const block = blocks[at] as string[];
      const end = Math.min(block.length, skip + count - found.length);
      for (let i = skip; i < end; i++) found.push(block[i] as string);
    }
    return found;
  }

  /**
   * Returns how many ids sort before `id` (and, with `inclusive`, equal it): the 0-based
   * position a keyset page starts at. Walks the block lengths, as `slice` does.
   */
  rank(id: string, inclusive = false): number {
    const blocks = this.#blocks;
    if (blocks.length === 0) return 0;
    const at = this.#blockOf(id);
    let before = 0;
    for (let i = 0; i < at; i++) before += (blocks[i] as string[]).length;
    const block = blocks[at] as string[];
    const position = lowerBound(block, id);
    return before + position + (inclusive && block[position] === id ? 1 : 0);
  }

  /** Iterates every id in ascending order. */
  *values(): IterableIterator<string> {
    for (const block of this.#blocks) yield* block;
  }

  /** Returns the index of the block that holds, or would hold, `id`. */
  #blockOf(id: string): number {
    const blocks = this.#blocks;
    let low = 0;
    let high = blocks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (((blocks[mid] as string[])[0] as string) <= id) low = mid + 1;
      else high = mid;
    }
    return Math.max(0, low - 1);
  }
}

/** Returns the position of the first id in `ids` not less than `id`. */
function lowerBound(ids: readonly string[], id: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((ids[mid] as string) < id) low = mid + 1;
    else high = mid;
  }
  return low;
}
