import { setMember } from './json-value.js';

/*
 * Settled JSON: the one rule for a value whose JSON text can never change, and the one place
 * that makes such values (a speed device behind a named seam). The memory stores keep their
 * versions through `settledCopy`, so nobody can change what they hand out and the serialiser
 * may keep a version's text (`SettledTexts`, src/core/http/response-json.ts); both ask
 * `isSettled`. What this module makes settled itself (a `settledCopy`'s copy, a
 * `SettledBuilder`'s object) carries a mark, so asking about it costs one member read; anything
 * else (a host store's frozen objects) is walked once, member by member, and entered in a
 * cache when it passes. Held to the plain rule by test/core/settled-texts.test.ts and
 * test/json/settled-mark.test.ts; what the marks buy is measured by the instruction and
 * allocation counts of `bench/http`.
 */

/** Makes a new, empty plain object meant to get `members` members. */
export type NewObject = (members: number) => Record<string, unknown>;

// Hands back the object its constructor is given, so that the field initialisers of a class
// extending it define their fields on that object rather than on a new one.
class Receiver {
  constructor(value: object) {
    return value;
  }
}

// The mark of a value this module made settled: the private field `#settled`, given to the
// object by `mark` before it is frozen. Why a field and not a WeakSet entry: an entry per
// stored version costs every write a hash table probe, an identity hash and the collector's
// write barrier for a young key in an old table; defining a non-enumerable symbol member costs
// as much (Object.defineProperty is a call into the runtime); a private field is defined and
// checked as cheaply as any member. No program can see it, copy it or forge it: it is not a property key
// (JSON.stringify, Object.keys, Reflect.ownKeys, a spread, Object.assign, structuredClone and
// util.inspect never meet it), only this class can name it, and `#settled in value` asks the
// object itself, never its prototypes.
class SettledMark extends Receiver {
  #settled = true;

  static isOn(value: object): boolean {
    return #settled in value;
  }
}

// A named cache: the values a walk proved settled (a host store's frozen objects, which cannot
// be given the mark), so that asking again costs one lookup instead of a walk over every member.
// Settled is for ever (nothing can change a frozen object of plain data), so an entry never
// goes stale and one set serves every store and service of the process; it is weak, so an entry
// goes with its value. Only whole values are entered (a resource read), not their parts.
const settledCache = new WeakSet<object>();

// Whether `value` is known settled without a walk: marked, or proved so before.
function isKnownSettled(value: object): boolean {
  return SettledMark.isOn(value) || settledCache.has(value);
}

// Marks `value`, which this module has just made settled and is about to freeze.
function mark<T extends object>(value: T): T {
  // The constructor returns `value` itself, with the field.
  return new SettledMark(value) as object as T;
}

/** Context of one copy: whether everything copied so far is JSON data. */
interface Copying {
  readonly newObject: NewObject;
  plain: boolean;
}

/**
 * Tells whether `value` is settled: deeply frozen JSON data, whose `JSON.stringify` text can
 * never change. Every object and array in it is frozen, has `Object.prototype`,
 * `Array.prototype` or no prototype, and has only data members, each a string, a number, a
 * boolean, `null`, `undefined` or settled in turn. A getter or a `toJSON` method could answer
 * differently each time, a function can gain a `toJSON`, a bigint has no JSON, and an object of
 * another class could compute what it shows. Answered from a mark for what this module made
 * settled ({@link settledCopy}, {@link SettledBuilder}), from a cache for what an earlier call
 * proved; anything else is walked.
 */
export function isSettled(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return isSettledMember(value);
  if (isKnownSettled(value)) return true;
  if (!proves(value, undefined)) return false;
  settledCache.add(value);
  return true;
}

/**
 * Returns `value` settled (see {@link isSettled}): `value` itself when it is, otherwise a deep
 * copy with every object and array frozen, sharing the parts of `value` that are settled
 * already. A getter is read once and its value copied; a function or a bigint is kept as it
 * is, and then the copy, frozen, is not settled. Objects of the copy come from `newObject`.
 *
 * @param previous - a settled value `value` replaces (the stored version before it): a member
 * of `value` that is the same object as `previous`'s member of that name is shared unchecked.
 */
export function settledCopy<T>(value: T, newObject: NewObject = emptyObject, previous?: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (isKnownSettled(value)) return value;
  const before =
    typeof previous === 'object' && previous !== null && isKnownSettled(previous)
      ? (previous as Record<string, unknown>)
      : undefined;
  if (proves(value, before)) {
    settledCache.add(value);
    return value;
  }
  const copying: Copying = { newObject, plain: true };
  return copyMembers(value, copying, before, true) as T;
}

/**
 * Builds a settled object member by member, in the order the members are set: for a caller
 * that lays out a new version itself (`assembleUser`). Each member is settled as it goes in:
 * the same object as `previous`'s member of that name is taken unchanged, a settled value as
 * it is, anything else as a settled copy ({@link settledCopy}'s rule, member by member). So
 * {@link SettledBuilder.finish} freezes and marks the object without walking it again, and a
 * store's `settledCopy` of it costs one lookup instead of a walk and a second copy.
 *
 * When `previous` is given but not settled (a host store's version), nothing is copied: the
 * members are taken as they are and the object is only frozen, as an object built by hand is.
 */
export class SettledBuilder {
  /** The object being built. Read it (to list its `schemas`, say); set members with `set`. */
  readonly members: Record<string, unknown>;
  readonly #before: Record<string, unknown> | undefined;
  readonly #copying: Copying | undefined;

  /**
   * @param size - how many members the object gets (for `newObject`).
   * @param previous - the version the object replaces, if any.
   */
  constructor(size: number, previous?: object, newObject: NewObject = emptyObject) {
    // One member more: the mark, when the object is finished settled.
    this.members = newObject(size + 1);
    const settled = previous === undefined || isKnownSettled(previous);
    this.#before = settled ? (previous as Record<string, unknown> | undefined) : undefined;
    this.#copying = settled ? { newObject, plain: true } : undefined;
  }

  /** Sets member `key` (again, if it is set already) to `value`, settled (see the class). */
  set(key: string, value: unknown): void {
    const copying = this.#copying;
    const settled =
      copying === undefined || sharedWith(this.#before, key, value)
        ? value
        : copyOf(value, copying);
    setMember(this.members, key, settled);
  }

  /** Returns the object, frozen, and marked settled when every member is. */
  finish(): Readonly<Record<string, unknown>> {
    const members = this.members;
    return Object.freeze(this.#copying?.plain === true ? mark(members) : members);
  }
}

/**
 * Freezes `record`, a flat record of JSON scalars (a version's `meta`, an account extension)
 * that the caller has just made with an object literal or a spread and hands over, so that a
 * stored version built around it shares it (a walk of its few members proves it settled) instead
 * of copying it. It is not marked: a mark is one more member, and one per stored version (the
 * version's own, made by {@link SettledBuilder} or {@link settledCopy}) is what the memory
 * stores keep at a million users (`bench/memory-store/footprint.ts` measures what they hold).
 */
export function settledRecord<T extends object>(record: T): Readonly<T> {
  return Object.freeze(record);
}

function emptyObject(): Record<string, unknown> {
  return {};
}

// The member rule: a JSON primitive, `undefined`, or a settled value.
function isSettledMember(item: unknown): boolean {
  switch (typeof item) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return true;
    case 'object':
      return item === null || isKnownSettled(item) || proves(item, undefined);
    default:
      return false;
  }
}

// The walk: `value` is frozen plain data and every member settled, or the same object as
// `before`'s member of its name. First what the members hold, read as JSON.stringify reads them:
// cheap, and where a value that is not settled mostly fails (a write's new, open parts). Then
// that each is a data member: a getter could answer differently next time.
function proves(value: object, before: Record<string, unknown> | undefined): boolean {
  if (!Object.isFrozen(value) || !hasPlainPrototype(value)) return false;
  const members = value as Record<string, unknown>;
  for (const key in members) {
    const item = members[key];
    if (!sharedWith(before, key, item) && !isSettledMember(item)) return false;
  }
  for (const key of Object.keys(members)) {
    const member = Object.getOwnPropertyDescriptor(members, key);
    if (member === undefined || !('value' in member)) return false;
  }
  return true;
}

// A member of a settled version, taken unchanged. Only objects: a primitive is checked as
// cheaply, and an inherited member (a method of Object.prototype) is no object. "__proto__" is
// read as the prototype when it is not an own member.
function sharedWith(before: Record<string, unknown> | undefined, key: string, item: unknown) {
  return (
    before !== undefined &&
    typeof item === 'object' &&
    item !== null &&
    key !== '__proto__' &&
    before[key] === item
  );
}

// A member of a copy: itself when it is settled, a copy otherwise.
function copyOf(item: unknown, copying: Copying): unknown {
  if (typeof item !== 'object' || item === null) {
    if (!isSettledMember(item)) copying.plain = false;
    return item;
  }
  if (isKnownSettled(item) || proves(item, undefined)) return item;
  return copyMembers(item, copying, undefined, false);
}

// The frozen copy of an object or array that is not settled; `whole` when it is the value
// `settledCopy` returns, marked when everything in it is JSON data (its parts are not marked).
function copyMembers(
  value: object,
  copying: Copying,
  before: Record<string, unknown> | undefined,
  whole: boolean,
): object {
  if (Array.isArray(value)) {
    const length = value.length;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) out[i] = copyOf(value[i], copying);
    return Object.freeze(whole && copying.plain ? mark(out) : out);
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  // One member more for the mark of a whole copy.
  const out = copying.newObject(whole ? keys.length + 1 : keys.length);
  for (const key of keys) {
    // Read once: a getter's value is what is kept.
    const item = source[key];
    // A client may send a "__proto__" member; assigning it would set the copy's prototype.
    setMember(out, key, sharedWith(before, key, item) ? item : copyOf(item, copying));
  }
  return Object.freeze(whole && copying.plain ? mark(out) : out);
}

// Plain JSON data only: an object of another class could compute what it answers.
function hasPlainPrototype(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}
