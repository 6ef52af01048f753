import { setMember } from '../../json/json-value.js';
import { exactObject } from './exact-objects.js';

/**
 * Deep-copies JSON data (plain objects, arrays and primitives).
 *
 * Stored users are JSON documents, so this is both enough and several times faster than
 * `structuredClone`, which also handles cycles, dates, maps and class instances we never hold.
 *
 * @internal
 */
export function cloneJson<T>(value: T): T {
  return copy(value, false) as T;
}

/**
 * Deep-copies JSON data like {@link cloneJson} and freezes every object and array of the copy,
 * so it can be handed to any number of callers without another copy: none of them can change it.
 *
 * @internal
 */
export function frozenCopy<T>(value: T): T {
  return copy(value, true) as T;
}

/**
 * Returns `text` as one flat string. V8 keeps a string made by concatenation as a tree of its
 * pieces until something reads it whole, and a string built a character at a time, as the
 * core's ids are, takes several times its length that way (an outbox message id: 192 bytes
 * instead of 56). What a store keeps outlives the request, so it keeps such strings flat.
 *
 * @internal
 */
export function flatString(text: string): string {
  // JSON gives back a new string, always flat; nothing cheaper in JavaScript promises that.
  return JSON.parse(JSON.stringify(text)) as string;
}

/**
 * Makes the stored form of a new version of a user: a {@link frozenCopy} of `next` that shares,
 * instead of copying, every top-level value `next` took unchanged (the same object) from
 * `previous`, the stored version it replaces, and every value that is deeply frozen already.
 * A PATCH thus copies only the attributes it changed; a `next` that is deeply frozen as a whole
 * is stored as it is.
 *
 * @internal
 */
export function frozenNextVersion<T extends object>(next: T, previous: T): T {
  const source = next as Record<string, unknown>;
  const before = previous as Record<string, unknown>;
  // The usual write (the core's PATCH or PUT) is deeply frozen already: one pass that only
  // reads proves it, and the version is kept as it is.
  if (Object.isFrozen(source) && hasPlainPrototype(source) && sharesAll(source, before))
    return next;
  const keys = Object.keys(source);
  const out = exactObject(keys.length);
  for (const key of keys) {
    const value = source[key];
    const item = key !== '__proto__' && before[key] === value ? value : copy(value, true);
    setMember(out, key, item);
  }
  return Object.freeze(out) as T;
}

// Every member is a primitive, the previous version's own value, or deeply frozen.
function sharesAll(source: Record<string, unknown>, before: Record<string, unknown>): boolean {
  for (const key in source) {
    const value = source[key];
    if (typeof value !== 'object' || value === null) continue;
    if (key !== '__proto__' && before[key] === value) continue;
    if (!isDeepFrozen(value)) return false;
  }
  return true;
}

function copy(value: unknown, freeze: boolean): unknown {
  if (typeof value !== 'object' || value === null) return value;
  // Nobody can change a deeply frozen value: its frozen copy can be the value itself.
  if (freeze && isDeepFrozen(value)) return value;
  if (Array.isArray(value)) {
    const length = value.length;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) out[i] = copy(value[i], freeze);
    return freeze ? Object.freeze(out) : out;
  }
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  // What is frozen is stored: made at its exact size.
  const out: Record<string, unknown> = freeze ? exactObject(keys.length) : {};
  for (const key of keys) {
    const item = copy(source[key], freeze);
    // A client may send a "__proto__" member; assigning it would set the copy's prototype.
    setMember(out, key, item);
  }
  return freeze ? Object.freeze(out) : out;
}

// Plain JSON data only: an object of another class could compute what it answers.
function hasPlainPrototype(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

function isDeepFrozen(value: object): boolean {
  if (!Object.isFrozen(value) || !hasPlainPrototype(value)) return false;
  const members = value as Record<string, unknown>;
  // A frozen object cannot gain members, and its prototype is a plain one: for...in sees
  // exactly its own, without building an array of them.
  for (const key in members) {
    const item = members[key];
    if (typeof item === 'object' && item !== null && !isDeepFrozen(item)) return false;
  }
  return true;
}
