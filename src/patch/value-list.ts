import { isJsonObject } from '../json/json-value.js';
import type { AttributeDefinition } from '../schema/types.js';
import type { ValueLookup, ValueTest } from './types.js';
import { valueKey } from './value-key.js';
import { textCost, WORK_COSTS, type WorkMeter } from '../filter/work-meter.js';

/** Below this many values a lookup scans: building a map costs more than it saves. */
const INDEX_FROM = 16;

/**
 * The values of one multi-valued attribute while a PATCH works on them: copied once per
 * request (not once per operation), changed in place slot by slot, with removed values left as
 * holes until {@link toArray}. Lookups by an equality use an index per sub-attribute, built on
 * first use and kept up to date by every change, so an operation on one value of a long list
 * costs about one visit, not one per value. Every visit, and the text each test or index key
 * reads, is charged to the request's {@link WorkMeter} before it is done. The values themselves
 * are never edited, only replaced.
 */
export class ValueList {
  readonly #slots: unknown[];
  #live: number;
  #changed: boolean;
  readonly #original: unknown;
  // The indexed sub-attribute (the attribute itself for simple values) → key → the slots
  // holding a value with that key.
  #indexes: Map<AttributeDefinition, Map<unknown, Slots>> | undefined;
  #primaries: Set<number> | undefined;

  constructor(
    current: unknown,
    private readonly attr: AttributeDefinition,
    private readonly meter: WorkMeter,
  ) {
    this.#original = current;
    const list = Array.isArray(current) ? current : current == null ? [] : [current];
    meter.spend(list.length * WORK_COSTS.visit);
    this.#slots = list.slice();
    this.#live = list.length;
    // A stored `[]` or single value is written back in the normal form once touched.
    this.#changed = current != null && (!Array.isArray(current) || current.length === 0);
  }

  /** How many values the list holds. */
  get size(): number {
    return this.#live;
  }

  /** Whether an operation changed the list since it was read. */
  get changed(): boolean {
    return this.#changed;
  }

  /** Returns the value in a slot (a slot from {@link find} or {@link push}). */
  at(slot: number): unknown {
    return this.#slots[slot];
  }

  /**
   * Lists, in order, the slots whose value passes `test`. With `lookups`, only the values an
   * index holds under the most selective lookup's key are tested; `test` must imply every
   * lookup's equality.
   */
  find(test: ValueTest, lookups: readonly ValueLookup[] = []): number[] {
    const found: number[] = [];
    const candidates = this.#candidates(lookups);
    const { meter } = this;
    if (candidates) {
      meter.spend(candidates.length * WORK_COSTS.visit);
      for (const slot of candidates) if (test(this.#slots[slot], meter)) found.push(slot);
      return found;
    }
    meter.spend(this.#slots.length * WORK_COSTS.visit);
    for (let slot = 0; slot < this.#slots.length; slot++) {
      const value = this.#slots[slot];
      if (value !== undefined && test(value, meter)) found.push(slot);
    }
    return found;
  }

  /** Replaces the value in a slot. */
  set(slot: number, value: unknown): void {
    this.meter.spend(WORK_COSTS.write);
    this.#unindex(slot);
    this.#slots[slot] = value;
    this.#reindex(slot);
    this.#changed = true;
  }

  /** Removes the value in a slot. */
  remove(slot: number): void {
    if (this.#slots[slot] === undefined) return;
    this.meter.spend(WORK_COSTS.visit);
    this.#unindex(slot);
    this.#slots[slot] = undefined;
    this.#live--;
    this.#changed = true;
  }

  /** Appends a value and returns its slot. */
  push(value: unknown): number {
    this.meter.spend(WORK_COSTS.write);
    const slot = this.#slots.push(value) - 1;
    this.#live++;
    this.#reindex(slot);
    this.#changed = true;
    return slot;
  }

  /** Replaces all values. */
  reset(values: readonly unknown[]): void {
    this.meter.spend(values.length * WORK_COSTS.visit);
    this.#slots.length = 0;
    for (const value of values) this.#slots.push(value);
    this.#live = values.length;
    this.#indexes = undefined;
    this.#primaries = undefined;
    this.#changed = true;
  }

  /** Lists the slots whose value is `primary: true`. */
  primaries(): readonly number[] {
    if (!this.#primaries) {
      this.meter.spend(this.#slots.length * WORK_COSTS.visit);
      this.#primaries = new Set();
      for (let slot = 0; slot < this.#slots.length; slot++) {
        if (isPrimary(this.#slots[slot])) this.#primaries.add(slot);
      }
    }
    return [...this.#primaries];
  }

  /** Returns the values as an array, `undefined` when none is left; the stored one if unchanged. */
  toArray(): unknown {
    if (!this.#changed) return this.#original;
    if (this.#live === 0) return undefined;
    this.meter.spend(this.#slots.length * WORK_COSTS.visit);
    if (this.#live === this.#slots.length) return this.#slots.slice();
    const out: unknown[] = [];
    for (const value of this.#slots) if (value !== undefined) out.push(value);
    return out;
  }

  // The slots the indexes hold under the lookups' keys, the fewest of them, in order; undefined
  // when there is nothing to look up or the list is short enough to scan.
  #candidates(lookups: readonly ValueLookup[]): number[] | undefined {
    if (lookups.length === 0 || this.#slots.length < INDEX_FROM) return undefined;
    let fewest: Slots | undefined;
    for (const lookup of lookups) {
      const def = lookup.sub ?? this.attr;
      const slots = this.#index(def).get(this.#key(def, lookup.value));
      if (slots === undefined) return [];
      if (fewest === undefined || size(slots) < size(fewest)) fewest = slots;
    }
    if (fewest === undefined) return [];
    return typeof fewest === 'number' ? [fewest] : [...fewest].sort((a, b) => a - b);
  }

  // The index of the values' `def` sub-attribute, built on first use.
  #index(def: AttributeDefinition): Map<unknown, Slots> {
    let index = this.#indexes?.get(def);
    if (!index) {
      this.meter.spend(this.#slots.length * WORK_COSTS.visit);
      index = new Map();
      (this.#indexes ??= new Map()).set(def, index);
      for (let slot = 0; slot < this.#slots.length; slot++)
        add(index, this.#keyOf(def, slot), slot);
    }
    return index;
  }

  // The key of a slot's value in the index of `def`; undefined (not indexed) for a hole or a
  // value without that sub-attribute, which no equality can match.
  #keyOf(def: AttributeDefinition, slot: number): unknown {
    const value = this.#slots[slot];
    if (value === undefined) return undefined;
    if (def === this.attr) return this.#key(def, value);
    const sub = isJsonObject(value) ? value[def.name] : undefined;
    return sub === undefined ? undefined : this.#key(def, sub);
  }

  // A value's key, its text (folded for a caseIgnore attribute) charged first.
  #key(def: AttributeDefinition, value: unknown): unknown {
    if (typeof value === 'string') this.meter.spend(textCost(value, !def.caseExact));
    return valueKey(def, value);
  }

  #unindex(slot: number): void {
    if (this.#indexes) {
      for (const [def, index] of this.#indexes) drop(index, this.#keyOf(def, slot), slot);
    }
    this.#primaries?.delete(slot);
  }

  #reindex(slot: number): void {
    if (this.#indexes) {
      for (const [def, index] of this.#indexes) add(index, this.#keyOf(def, slot), slot);
    }
    if (this.#primaries && isPrimary(this.#slots[slot])) this.#primaries.add(slot);
  }
}

// Most keys hold one slot: a number until a second one comes, so an index of n distinct values
// allocates no set per value.
type Slots = number | Set<number>;

function add(index: Map<unknown, Slots>, key: unknown, slot: number): void {
  if (key === undefined) return;
  const slots = index.get(key);
  if (slots === undefined) index.set(key, slot);
  else if (typeof slots === 'number') index.set(key, new Set([slots, slot]));
  else slots.add(slot);
}

function size(slots: Slots): number {
  return typeof slots === 'number' ? 1 : slots.size;
}

function drop(index: Map<unknown, Slots>, key: unknown, slot: number): void {
  const slots = index.get(key);
  if (slots === slot) index.delete(key);
  else if (typeof slots === 'object') slots.delete(slot);
}

function isPrimary(value: unknown): boolean {
  return isJsonObject(value) && value.primary === true;
}
