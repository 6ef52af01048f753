import type { SortOrder } from '../contracts/user-store.js';
import { foldCase } from '../schema/fold-case.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { AttributePath } from './ast.js';
import { parseDateTime } from '../schema/date-time.js';
import { textCost, WORK_COSTS, type WorkMeter } from './work-meter.js';

type Json = Record<string, unknown>;

/** Orders two resources; ties broken by `id` so paging through a sorted list stays stable. */
export type ResourceComparator = (a: Readonly<Json>, b: Readonly<Json>) => number;

// A multi-valued attribute sorts by its primary value, else its first (RFC 7644 §3.4.2.3).
function pickValue(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.find((v) => (v as Json | null)?.primary === true) ?? value[0];
}

/** A sort key: what `compileSort` orders resources by; `undefined` when there is no value. */
export type SortKey = string | number | boolean;

/**
 * Builds the function that reads a resource's sort key for `sortBy`, as `compileSort` orders
 * them: strings folded by `foldCase` unless the attribute is `caseExact`, dateTimes as
 * instants (ms), numbers and booleans as they are; `undefined` when there is no value. A
 * multi-valued attribute gives its primary value, else its first. With a `meter`, each key read
 * is charged to it first: a visit, and the text it folds.
 *
 * @see RFC 7644 §3.4.2.3
 */
export function compileSortKey(
  path: AttributePath,
  type: CompiledResourceType,
  meter?: WorkMeter,
): (resource: Readonly<Json>) => SortKey | undefined {
  const target = type.resolve(path);
  const leaf = target?.subAttribute ?? target?.attribute;
  const container = target?.extension?.id;
  const attribute = target?.attribute.name ?? path.attribute;
  const sub = target?.subAttribute?.name ?? path.subAttribute;
  const fold = leaf?.type === 'string' || leaf?.type === 'reference' ? !leaf.caseExact : false;
  const isDate = leaf?.type === 'dateTime';

  return (resource) => {
    const holder = container === undefined ? resource : (resource[container] as Json | undefined);
    let value = pickValue(holder?.[attribute]);
    if (sub !== undefined) value = pickValue((value as Json | null | undefined)?.[sub]);
    meter?.spend(WORK_COSTS.visit);
    if (value === null || value === undefined) return undefined;
    if (typeof value === 'string') {
      meter?.spend(textCost(value, fold));
      if (isDate) {
        const t = parseDateTime(value);
        return Number.isNaN(t) ? undefined : t;
      }
      return fold ? foldCase(value) : value;
    }
    return typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
  };
}

/**
 * Compares two sort keys in ascending order; a missing key (`undefined`) is the largest.
 * Keys of different types (a stored value of the wrong type) compare by type name, so the
 * order stays total.
 */
export function compareSortKeys(a: SortKey | undefined, b: SortKey | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (typeof a !== typeof b) return typeof a < typeof b ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Builds the comparator of `sortBy` / `sortOrder` for an attribute path already checked by
 * the core, by the keys `compileSortKey` reads. Resources without a value come last in
 * ascending order and first in descending order (nulls are the largest value); ties are
 * broken by `id`. With a `meter`, each key read and each comparison is charged to it first (a
 * comparison of two texts costs their shorter length: their common start may be that long).
 *
 * @see RFC 7644 §3.4.2.3
 */
export function compileSort(
  path: AttributePath,
  order: SortOrder,
  type: CompiledResourceType,
  meter?: WorkMeter,
): ResourceComparator {
  const keyOf = compileSortKey(path, type, meter);
  const direction = order === 'descending' ? -1 : 1;
  const cache = new WeakMap<object, SortKey | undefined>();
  const cachedKey = (r: Readonly<Json>) => {
    if (cache.has(r)) return cache.get(r);
    const k = keyOf(r);
    cache.set(r, k);
    return k;
  };
  return (a, b) => {
    const ka = cachedKey(a);
    const kb = cachedKey(b);
    if (meter) meter.spend(2 * WORK_COSTS.visit + comparedText(ka, kb));
    const c = compareSortKeys(ka, kb);
    if (c !== 0) return c * direction;
    const ia = String(a.id);
    const ib = String(b.id);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  };
}

// The characters comparing two keys may read: the shorter text, or none.
function comparedText(a: SortKey | undefined, b: SortKey | undefined): number {
  if (typeof a !== 'string' || typeof b !== 'string') return 0;
  return Math.min(a.length, b.length) * WORK_COSTS.char;
}
