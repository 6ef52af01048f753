import { setMember } from '../../json/json-value.js';
import { settledCopy } from '../../json/settled-json.js';
import { exactObject } from '../../json/exact-objects.js';

/**
 * Deep-copies JSON data (plain objects, arrays and primitives).
 *
 * Stored users are JSON documents, so this is both enough and several times faster than
 * `structuredClone`, which also handles cycles, dates, maps and class instances we never hold.
 *
 * @internal
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJson(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  // A client may send a "__proto__" member; assigning it would set the copy's prototype.
  for (const key of Object.keys(source)) setMember(out, key, cloneJson(source[key]));
  return out as T;
}

/**
 * Returns the stored form of `value`: settled JSON data (`settledCopy` of
 * src/json/settled-json.ts), so it can be handed to any number of callers without another
 * copy (none of them can change it), and the serialiser may keep its text. Its objects are
 * laid out at their exact size.
 *
 * @internal
 */
export function frozenCopy<T>(value: T): T {
  return settledCopy(value, exactObject);
}

/**
 * Makes the stored form of a new version of a resource: a {@link frozenCopy} of `next` that
 * shares, instead of copying, every top-level value `next` took unchanged (the same object)
 * from `previous`, the stored version it replaces (or a settled resource it was made from),
 * and every value that is settled already.
 * A PATCH thus copies only the attributes it changed; a `next` that is settled as a whole
 * (the core's PATCH or PUT, frozen) is stored as it is.
 *
 * @internal
 */
export function frozenNextVersion<T extends object>(next: T, previous: T): T {
  return settledCopy(next, exactObject, previous);
}
