import type { SortOrder } from '../contracts/user-store.js';
import { foldCase } from '../schema/fold-case.js';
import type { CompiledResourceType } from '../schema/resource-type.js';
import type { AttributePath } from './ast.js';
import { parseDateTime } from '../schema/date-time.js';

type Json = Record<string, unknown>;
type Key = string | number | boolean;

/** Orders two resources; ties broken by `id` so paging through a sorted list stays stable. */
export type ResourceComparator = (a: Readonly<Json>, b: Readonly<Json>) => number;

// A multi-valued attribute sorts by its primary value, else its first (RFC 7644 §3.4.2.3).
function pickValue(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.find((v) => (v as Json | null)?.primary === true) ?? value[0];
}

/**
 * Builds the comparator of `sortBy` / `sortOrder` for an attribute path already checked by
 * the core: strings compare by `foldCase` unless the attribute is `caseExact`, dateTimes by
 * instant, numbers and booleans by value. Resources without a value come last in ascending
 * order and first in descending order (nulls are the largest value); ties are broken by `id`.
 *
 * @see RFC 7644 §3.4.2.3
 */
export function compileSort(
  path: AttributePath,
  order: SortOrder,
  type: CompiledResourceType,
): ResourceComparator {
  const target = type.resolve(path);
  const leaf = target?.subAttribute ?? target?.attribute;
  const container = target?.extension?.id;
  const attribute = target?.attribute.name ?? path.attribute;
  const sub = target?.subAttribute?.name ?? path.subAttribute;
  const fold = leaf?.type === 'string' || leaf?.type === 'reference' ? !leaf.caseExact : false;
  const isDate = leaf?.type === 'dateTime';

  const keyOf = (resource: Readonly<Json>): Key | undefined => {
    const holder = container === undefined ? resource : (resource[container] as Json | undefined);
    let value = pickValue(holder?.[attribute]);
    if (sub !== undefined) value = pickValue((value as Json | null | undefined)?.[sub]);
    if (value === null || value === undefined) return undefined;
    if (typeof value === 'string') {
      if (isDate) {
        const t = parseDateTime(value);
        return Number.isNaN(t) ? undefined : t;
      }
      return fold ? foldCase(value) : value;
    }
    return typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
  };

  const direction = order === 'descending' ? -1 : 1;
  const cache = new WeakMap<object, Key | undefined>();
  const cachedKey = (r: Readonly<Json>) => {
    if (cache.has(r)) return cache.get(r);
    const k = keyOf(r);
    cache.set(r, k);
    return k;
  };
  return (a, b) => {
    const ka = cachedKey(a);
    const kb = cachedKey(b);
    let c = 0;
    if (ka === undefined || kb === undefined) c = ka === kb ? 0 : ka === undefined ? 1 : -1;
    else if (ka < kb) c = -1;
    else if (ka > kb) c = 1;
    if (c !== 0) return c * direction;
    const ia = String(a.id);
    const ib = String(b.id);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  };
}
