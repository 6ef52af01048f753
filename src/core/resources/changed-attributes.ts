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
