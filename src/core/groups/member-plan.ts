import type { MemberInput } from '../../contracts/group-store.js';

/**
 * What a write does to a group's members, built operation by operation: deltas (these ids in,
 * these out) that a store applies without reading the member list, or a whole new list.
 * Composing in order keeps the meaning of the operations' sequence: an add then a remove of
 * one id leaves it out, a remove then an add puts it in.
 */
export class MemberPlan {
  /** The whole new list, once an operation replaced it; deltas otherwise. */
  #list: Map<string, MemberInput> | undefined;
  readonly #add = new Map<string, MemberInput>();
  readonly #remove = new Set<string>();

  /** Adds members; one already there stays as it is. */
  add(members: readonly MemberInput[]): void {
    for (const m of members) {
      if (this.#list) {
        if (!this.#list.has(m.value)) this.#list.set(m.value, m);
      } else {
        this.#remove.delete(m.value);
        if (!this.#add.has(m.value)) this.#add.set(m.value, m);
      }
    }
  }

  /** Removes members by id; an id that is no member is ignored. */
  remove(ids: Iterable<string>): void {
    for (const id of ids) {
      if (this.#list) this.#list.delete(id);
      else {
        this.#add.delete(id);
        this.#remove.add(id);
      }
    }
  }

  /** Replaces the whole list (an empty one removes every member). */
  replace(members: readonly MemberInput[]): void {
    this.#list = new Map();
    this.#add.clear();
    this.#remove.clear();
    for (const m of members) if (!this.#list.has(m.value)) this.#list.set(m.value, m);
  }

  /** Whether any operation named the members. */
  get touched(): boolean {
    return this.#list !== undefined || this.#add.size > 0 || this.#remove.size > 0;
  }

  /** The whole new list, when an operation replaced it. */
  get list(): readonly MemberInput[] | undefined {
    return this.#list && [...this.#list.values()];
  }

  /** The members to add (deltas; empty once the list was replaced). */
  get additions(): readonly MemberInput[] {
    return [...this.#add.values()];
  }

  /** The ids to remove (deltas; empty once the list was replaced). */
  get removals(): readonly string[] {
    return [...this.#remove];
  }
}
