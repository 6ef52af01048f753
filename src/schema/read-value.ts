import { isJsonObject } from '../json/json-value.js';
import type { RuleTrace } from './dialect-rules.js';
import { REFUSED } from './value-rules.js';
import {
  hasTwoPrimaries,
  isUnassigned,
  listOf,
  memberAt,
  namedTwice,
  NOT_AN_OBJECT,
  NULL_ITEM,
  REQUIRED,
  TWO_PRIMARIES,
  type ListShape,
  type ObjectShape,
  type ScalarShape,
  type ValueShape,
} from './value-shape.js';

type Json = Record<string, unknown>;

/**
 * Why a value was refused, and where: what {@link readValue} throws, for its caller to word as
 * the error a client reads (a POST or PUT body and a PATCH name the place differently).
 *
 * @internal
 */
export class ValueRefusal extends Error {
  /**
   * Where in the value read: member names (canonical) and list positions, outermost first;
   * empty for the value itself. Each level of the walk the refusal leaves adds its place.
   */
  readonly path: (string | number)[] = [];

  /**
   * @param message What the value there must be: `must be a boolean`, `is required`.
   * @param input The value given there (what an error may quote).
   * @param whole Whether the refusal is about the value as a whole (a `null` in a list, two
   *   primary values, a missing required member) rather than the value given there, which is
   *   then not shown.
   */
  constructor(
    message: string,
    readonly input: unknown,
    readonly whole = false,
  ) {
    super(message);
    this.name = 'ValueRefusal';
  }
}

/**
 * What differs between reading a value for a POST or PUT body and for a PATCH: the parameters
 * of {@link readValue}.
 *
 * @internal
 */
export interface ValueReading {
  /**
   * `false` for a whole value (a POST or PUT body): a `null` member is no value and is left out,
   * and every object must hold its required members. `true` for a value a PATCH merges into
   * what is stored: a member given as `null` (or read as no value, an empty id) comes back as an
   * own key holding `undefined`, so the merge can delete it; a singular complex value need not
   * hold its required members (the stored one may), while each value of a list, being whole,
   * must.
   */
  readonly merge: boolean;
  /**
   * With `merge`: whether `null` clears a value (dialect rule `nullClears`) or is refused.
   * A `null` inside a list is refused either way: null unassigns a whole attribute.
   */
  readonly nullClears: boolean;
  /**
   * Hears each dialect rule that makes a value given into no value (`nullClears`,
   * `managerEmptyString`), `where` being `.value`: in the value read.
   */
  readonly trace?: RuleTrace | undefined;
}

/**
 * Reads one value against its compiled rules (`compileShape`), for a POST, a PUT or a PATCH
 * alike: the value checked against its type and coerced (`"True"` → `true`, a date-time in its
 * stored form); a complex value read in its dialect forms, then as an object of sub-attributes
 * whose names match in any letter case and come out canonical, in the shape's order, with names
 * it does not list dropped; a multi-valued attribute read as a list (one bare value is a list of
 * one) with no `null` in it and at most one primary value. Returns `undefined` for "no value"
 * (an empty list, a complex value with nothing left, an empty id).
 *
 * Each object is read in three steps, so that every reading refuses the same value for the same
 * reason: its names (one given twice in different letter cases is ambiguous), then its members
 * in the shape's order, then its required members.
 *
 * @throws ValueRefusal for the first reason the value is refused.
 * @see RFC 7643 §2.1 (names), §2.3 (types), §2.4 (multi-valued), §2.5 (unassigned), §7 (required)
 * @internal
 */
export function readValue(shape: ValueShape, value: unknown, reading: ValueReading): unknown {
  return read(shape, value, reading, !reading.merge);
}

// `whole`: the object must hold its required members (see `ValueReading.merge`).
function read(shape: ValueShape, value: unknown, reading: ValueReading, whole: boolean): unknown {
  if (value === null) return nullValue(reading);
  switch (shape.kind) {
    case 'any':
      return value;
    case 'scalar':
      return readScalar(shape, value, reading);
    case 'list':
      return readList(shape, value, reading);
    case 'object':
      return readObject(shape, value, reading, whole);
  }
}

function nullValue(reading: ValueReading): undefined {
  if (!reading.merge) return undefined;
  if (!reading.nullClears) throw new ValueRefusal('must not be null', null);
  cleared(reading, 'nullClears', null);
  return undefined;
}

function readScalar(shape: ScalarShape, value: unknown, reading: ValueReading): unknown {
  const out = shape.read(value);
  if (out === REFUSED) throw new ValueRefusal(shape.expected(value), value);
  // A scalar read as no value is an id reference's empty id (`manager.value: ""`).
  if (out === undefined) cleared(reading, 'managerEmptyString', value);
  return out;
}

function readList(shape: ListShape, value: unknown, reading: ValueReading): unknown[] | undefined {
  const items = listOf(value);
  const at = items.findIndex(isUnassigned);
  if (at >= 0) throw within(new ValueRefusal(NULL_ITEM, items[at], true), at);
  const out: unknown[] = [];
  for (let i = 0; i < items.length; i++) {
    let one: unknown;
    try {
      one = read(shape.item, items[i], reading, true);
    } catch (error) {
      throw within(error, i);
    }
    // A value of a list is whole: what was cleared in it is simply not there.
    const kept = reading.merge && isJsonObject(one) ? stripUndefined(one) : one;
    if (kept === undefined || (isJsonObject(kept) && isEmpty(kept))) continue;
    out.push(kept);
  }
  if (shape.onePrimary && hasTwoPrimaries(out)) throw new ValueRefusal(TWO_PRIMARIES, value, true);
  return out.length === 0 ? undefined : out;
}

function readObject(shape: ObjectShape, value: unknown, reading: ValueReading, whole: boolean) {
  const given = shape.readForm ? shape.readForm(value) : value;
  // A dialect form that is no value (an empty id, `managerEmptyString`) unassigns, as null does.
  if (given === undefined) {
    cleared(reading, 'managerEmptyString', value);
    return undefined;
  }
  if (!isJsonObject(given)) throw new ValueRefusal(NOT_AN_OBJECT, given);
  const { members } = shape;
  const slots = valuesByMember(shape, given);
  const out: Json = {};
  let count = 0;
  for (let at = 0; at < members.length; at++) {
    const raw = slots[at];
    // Not given, or (in a whole value) given as null: no value either way.
    if (raw === undefined || (raw === null && !reading.merge)) continue;
    const member = members[at] as (typeof members)[number];
    let one: unknown;
    try {
      one = read(member.shape, raw, reading, !reading.merge);
    } catch (error) {
      throw within(error, member.name);
    }
    if (one === undefined && !reading.merge) continue;
    out[member.name] = one;
    count++;
  }
  if (whole) {
    for (const at of shape.required) {
      const { name } = members[at] as (typeof members)[number];
      if (out[name] === undefined) throw within(new ValueRefusal(REQUIRED, undefined, true), name);
    }
  }
  if (count > 0) return out;
  return reading.merge || shape.emptyIsNoValue ? undefined : out;
}

// The values an object gives, by member index; names it does not list are left out. A member
// named twice (`value` and `VALUE`, even as null) is ambiguous and refused.
function valuesByMember(shape: ObjectShape, given: Json): unknown[] {
  const slots: unknown[] = new Array<unknown>(shape.members.length);
  for (const key in given) {
    const at = memberAt(shape, key);
    if (at < 0) continue;
    if (slots[at] !== undefined) {
      const { name } = shape.members[at] as ObjectShape['members'][number];
      throw new ValueRefusal(namedTwice(name), given);
    }
    slots[at] = given[key];
  }
  return slots;
}

/**
 * Removes the own keys that hold `undefined` (the members a merged value clears), copying the
 * object only when it has some.
 *
 * @internal
 */
export function stripUndefined(value: Json): Json {
  let clean = true;
  for (const key in value) if (value[key] === undefined) clean = false;
  if (clean) return value;
  const out: Json = {};
  for (const key in value) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

function isEmpty(value: Json): boolean {
  for (const _ in value) return false;
  return true;
}

function within(error: unknown, key: string | number): unknown {
  if (error instanceof ValueRefusal) error.path.unshift(key);
  return error;
}

function cleared(
  reading: ValueReading,
  rule: 'nullClears' | 'managerEmptyString',
  received: unknown,
): void {
  reading.trace?.({ rule, where: '.value', received, became: undefined });
}
