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
 * Makes the private stored form of a user: a new top-level object and a new `meta`, which the
 * store never hands out (see {@link handedOut}), holding every other value deeply frozen. A
 * value taken unchanged (the same object) from `previous`, the stored version it replaces, or
 * one that is deeply frozen already is shared instead of copied: a PATCH copies only the
 * attributes it changed.
 *
 * @internal
 */
export function storedForm<T extends object>(next: T, previous?: T): T {
  const source = next as Record<string, unknown>;
  const before = previous as Record<string, unknown> | undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const value = source[key];
    let item: unknown;
    if (key === 'meta' && isPlainObject(value)) item = privateCopy(value);
    else if (key !== '__proto__' && before !== undefined && before[key] === value) item = value;
    else item = copy(value, true);
    if (key === '__proto__') defineData(out, key, item);
    else out[key] = item;
  }
  return out as T;
}

/**
 * Hands out a stored user: a new top-level object and a new `meta` around the shared, deeply
 * frozen values. A caller may change what it got without changing what is stored; a change
 * deeper inside throws. Both copies are plain spreads of plain objects, which V8 makes on its
 * fast path (a spread of a frozen object takes the slow one), and so is every copy a caller
 * makes of the result.
 *
 * @internal
 */
export function handedOut<T extends object>(stored: T): T {
  const out = { ...stored } as Record<string, unknown>;
  const meta = out.meta;
  if (isPlainObject(meta)) out.meta = { ...meta };
  return out as T;
}

// `meta` stays writable in the stored form, so that handing it out is a fast spread; its own
// values are frozen like every other.
function privateCopy(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copy(value[key], true);
    if (key === '__proto__') defineData(out, key, item);
    else out[key] = item;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function defineData(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
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
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const item = copy(source[key], freeze);
    // A client may send a "__proto__" member; assigning it would set the copy's prototype.
    if (key === '__proto__') defineData(out, key, item);
    else out[key] = item;
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
  for (const key of Object.keys(members)) {
    const item = members[key];
    if (typeof item === 'object' && item !== null && !isDeepFrozen(item)) return false;
  }
  return true;
}
