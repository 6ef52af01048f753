/** Lists the top-level attributes whose values differ between two versions of a resource. */
export function changedAttributes(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
  ignore: ReadonlySet<string>,
): string[] {
  const changed: string[] = [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    if (!ignore.has(key) && !jsonEqual(before[key], after[key])) changed.push(key);
  }
  return changed;
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
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) return false;
  for (const k of ak) {
    if (
      !Object.hasOwn(b, k) ||
      !jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])
    )
      return false;
  }
  return true;
}

/**
 * Compares two objects structurally as {@link jsonEqual} does, leaving out one top-level key,
 * without copying either of them.
 */
export function jsonEqualExcept(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
  ignored: string,
): boolean {
  let counted = 0;
  for (const key of Object.keys(a)) {
    if (key === ignored) continue;
    if (!Object.hasOwn(b, key) || !jsonEqual(a[key], b[key])) return false;
    counted++;
  }
  let others = 0;
  for (const key of Object.keys(b)) if (key !== ignored) others++;
  return counted === others;
}
