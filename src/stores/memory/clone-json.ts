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

function copy(value: unknown, freeze: boolean): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const length = value.length;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) out[i] = copy(value[i], freeze);
    return freeze ? Object.freeze(out) : out;
  }
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = copy(source[key], freeze);
    // A client may send a "__proto__" member; assigning it would set the copy's prototype.
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else out[key] = item;
  }
  return freeze ? Object.freeze(out) : out;
}
