import { jsonEqual } from '../../json/json-value.js';

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
  for (const key in a) {
    if (key === ignored) continue;
    const x = a[key];
    // Most members of two versions are the same object or value: no lookup beyond the read.
    if (x !== b[key] && (!Object.hasOwn(b, key) || !jsonEqual(x, b[key]))) return false;
    counted++;
  }
  let others = 0;
  for (const key in b) if (key !== ignored) others++;
  return counted === others;
}
