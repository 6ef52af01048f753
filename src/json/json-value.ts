/** A JSON object: what SCIM resources, complex values and request bodies are. */
export type JsonObject = Record<string, unknown>;

/** Tells whether a value is a JSON object (not `null`, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Compares two JSON objects member by member, structurally, leaving out the member named
 * `ignored` if one is given. Members that are the same value or object (as in two versions of a
 * resource) cost one read each; no arrays of keys are built.
 */
export function jsonMembersEqual(
  a: Readonly<JsonObject>,
  b: Readonly<JsonObject>,
  ignored?: string,
): boolean {
  let counted = 0;
  for (const key in a) {
    if (key === ignored) continue;
    const x = a[key];
    if (x !== b[key] && (!Object.hasOwn(b, key) || !jsonEqual(x, b[key]))) return false;
    counted++;
  }
  let others = 0;
  for (const key in b) if (key !== ignored) others++;
  return counted === others;
}

/** Compares two JSON values structurally (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const x = a as JsonObject;
  const y = b as JsonObject;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const k of keys) if (!Object.hasOwn(y, k) || !jsonEqual(x[k], y[k])) return false;
  return true;
}

/**
 * A writable shallow copy of a JSON object, members in order: `{ ...value }`, for the write
 * path, which copies stored resources and their parts and then assigns what changes.
 */
export function shallowCopy<T extends object>(value: T): T {
  return { ...value };
}

/**
 * Sets `target[key] = value` as an own, enumerable data member, whatever the key: a client may
 * send a `"__proto__"` member, which a plain assignment would turn into the object's prototype.
 */
export function setMember(target: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}
