/** One value of a multi-valued attribute kept apart, named by its `value` (a member's id). */
export interface DeltaValue {
  readonly value: string;
}

/**
 * What a write does to a multi-valued attribute a store keeps apart from the resource (a
 * group's members), built operation by operation: deltas (these values in, these out) that a
 * store applies without reading the list, or a whole new list.
 * Composing in order keeps the meaning of the operations' sequence: an add then a remove of
 * one id leaves it out, a remove then an add puts it in.
 */
export class DeltaPlan {
  /** The whole new list, once an operation replaced it; deltas otherwise. */
  #list: Map<string, DeltaValue> | undefined;
  readonly #add = new Map<string, DeltaValue>();
  readonly #remove = new Set<string>();

  /** Adds values; one already there stays as it is. */
  add(members: readonly DeltaValue[]): void {
    for (const m of members) {
      if (this.#list) {
        if (!this.#list.has(m.value)) this.#list.set(m.value, m);
      } else {
        this.#remove.delete(m.value);
        if (!this.#add.has(m.value)) this.#add.set(m.value, m);
      }
    }
  }

  /** Removes values by `value`; one that is not there is ignored. */
  remove(ids: Iterable<string>): void {
    for (const id of ids) {
      if (this.#list) this.#list.delete(id);
      else {
        this.#add.delete(id);
        this.#remove.add(id);
      }
    }
  }

  /** Replaces the whole list (an empty one removes every value). */
  replace(members: readonly DeltaValue[]): void {
    this.#list = new Map();
    this.#add.clear();
    this.#remove.clear();
    for (const m of members) if (!this.#list.has(m.value)) this.#list.set(m.value, m);
  }

  /** Whether any operation changed the values. */
  get touched(): boolean {
    return this.#list !== undefined || this.#add.size > 0 || this.#remove.size > 0;
  }

  /** The whole new list, when an operation replaced it. */
  get list(): readonly DeltaValue[] | undefined {
    return this.#list && [...this.#list.values()];
  }

  /** The values to add (deltas; empty once the list was replaced). */
  get additions(): readonly DeltaValue[] {
    return [...this.#add.values()];
  }

  /** The `value`s to remove (deltas; empty once the list was replaced). */
  get removals(): readonly string[] {
    return [...this.#remove];
  }
}
