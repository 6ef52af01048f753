import { settledCopy } from '../../json/settled-json.js';

/** How many distinct lists are shared at most: the combinations of a resource type's extensions. */
const MAX_LISTS = 64;

/**
 * Hands out one frozen array per distinct list of strings, so that stored users with the same
 * `schemas` share one array instead of holding one each (a list made for every user created
 * with an extension holds, with its spare capacity, a few hundred bytes per user;
 * `bench/memory-store/footprint.ts` measures what a store holds per user).
 *
 * Only a few dozen lists are kept; a list beyond them, or anything that is not an array of
 * strings, is returned as it is.
 *
 * @internal
 */
export class SharedLists {
  readonly #lists = new Map<string, readonly string[]>();
  /** The arrays handed out: the core passes the same frozen list again and again. */
  readonly #shared = new Set<unknown>();

  /** Returns the shared frozen array equal to `list`, or `list` itself when none applies. */
  share<T>(list: T): T {
    if (this.#shared.has(list)) return list;
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) return list;
    const key = JSON.stringify(list);
    let shared = this.#lists.get(key);
    if (shared === undefined) {
      if (this.#lists.size >= MAX_LISTS) return list;
      // Settled (src/json/settled-json.ts), and known so: a stored user holding it is copied
      // without a walk over the list. A frozen list of strings is the shared one itself.
      shared = settledCopy(list as readonly string[]);
      this.#lists.set(key, shared);
      this.#shared.add(shared);
    }
    return shared as T;
  }
}
