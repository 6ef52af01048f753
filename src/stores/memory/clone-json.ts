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
    const length = value.length;
    const copy = new Array<unknown>(length);
    for (let i = 0; i < length; i++) copy[i] = cloneJson(value[i] as unknown);
    return copy as T;
  }
  const source = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = cloneJson(source[key]);
    // A client may send a "__proto__" member; assigning it would set the copy's prototype.
    if (key === '__proto__') {
      Object.defineProperty(copy, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else copy[key] = item;
  }
  return copy as T;
}
