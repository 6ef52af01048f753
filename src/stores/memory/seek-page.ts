import type { ListPosition, ListQuery, ListSeekResult } from '../../contracts/store-query.js';
import { compareSortKeys, compileSortKey, type SortKey } from '../../filter/compile-sort.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { SortedIds } from './sorted-ids.js';

type Json = Record<string, unknown>;

/** A resource as a keyset page sees it: a user or a group, with its id. */
interface Keyed {
  readonly id: string;
}

/** A keyset page of resources `R`: a `ListResult` for users, a `GroupListResult` for groups. */
export interface SeekPage<R> {
  readonly totalResults: number;
  readonly resources: readonly R[];
  readonly seek: ListSeekResult;
}

/** Reads a resource's place in a query's order, and compares a place with a resource. */
interface Places {
  readonly of: (user: Keyed) => ListPosition;
  /** Negative when `place` comes before `user` in the query's order, 0 on the same place. */
  readonly compare: (place: ListPosition, user: Keyed) => number;
}

/** Builds the places of a query's order: by `sortBy` (keys as `compileSort` has them), then id. */
export function placesOf(query: ListQuery, type: CompiledResourceType): Places {
  const byId = (id: string, user: Keyed) => (id < user.id ? -1 : id > user.id ? 1 : 0);
  if (!query.sortBy) return { of: (user) => ({ id: user.id }), compare: (p, u) => byId(p.id, u) };
  const keyOf = compileSortKey(query.sortBy, type);
  const direction = query.sortOrder === 'descending' ? -1 : 1;
  return {
    of(user) {
      const key = keyOf(user as unknown as Json);
      return key === undefined ? { id: user.id } : { id: user.id, key };
    },
    compare(place, user) {
      const c = compareSortKeys(place.key, keyOf(user as unknown as Json) as SortKey | undefined);
      return c !== 0 ? c * direction : byId(place.id, user);
    },
  };
}

/**
 * Cuts the keyset page of `query.seek` out of every match, already in the query's order:
 * the `count` resources after `seek.from` (or, backward, right before it; from the end without
 * it). A place whose resource is gone still cuts at the same point, so concurrent creates and
 * deletes shift nothing.
 */
export function seekPage<R extends Keyed>(
  ordered: readonly R[],
  query: ListQuery,
  places: Places,
): SeekPage<R> {
  const count = Math.max(0, query.count);
  const from = query.seek?.from;
  let start = 0;
  let end: number;
  if (query.seek?.direction === 'backward') {
    end =
      from === undefined
        ? ordered.length
        : firstIndex(ordered, (user) => places.compare(from, user) <= 0);
    start = Math.max(0, end - count);
  } else if (from === undefined) {
    end = Math.min(ordered.length, count);
  } else {
    start = firstIndex(ordered, (user) => places.compare(from, user) < 0);
    end = Math.min(ordered.length, start + count);
  }
  return pageResult(ordered.slice(start, end), ordered.length, query, places, start, end);
}

/**
 * Cuts the keyset page of `query.seek` out of the id order itself, for a query with no filter
 * and no sort: the place is found by rank, so a deep page costs what the first one does.
 */
export function idOrderPage<R extends Keyed>(
  order: SortedIds,
  query: ListQuery,
  places: Places,
  byId: (id: string) => R,
): SeekPage<R> {
  const total = order.size;
  const count = Math.max(0, query.count);
  const from = query.seek?.from;
  const backward = query.seek?.direction === 'backward';
  let start = from === undefined ? (backward ? total : 0) : order.rank(from.id, !backward);
  let end = Math.min(total, start + count);
  if (backward) {
    end = start;
    start = Math.max(0, end - count);
  }
  const page = order.slice(start, end - start).map(byId);
  return pageResult(page, total, query, places, start, end);
}

/** Builds a keyset page's result: its resources, the total, its first and last places, `more`. */
export function pageResult<R extends Keyed>(
  resources: readonly R[],
  totalResults: number,
  query: ListQuery,
  places: Places,
  start: number,
  end: number,
): SeekPage<R> {
  const backward = query.seek?.direction === 'backward';
  const first = resources[0];
  const last = resources[resources.length - 1];
  return {
    totalResults,
    resources,
    seek: {
      ...(first ? { first: places.of(first) } : {}),
      ...(last ? { last: places.of(last) } : {}),
      more: backward ? start > 0 : end < totalResults,
    },
  };
}

/** Returns the index of the first resource for which `test` holds; the resources are ordered so
 * that it holds from some index on (binary search). */
function firstIndex<R>(users: readonly R[], test: (user: R) => boolean): number {
  let low = 0;
  let high = users.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (test(users[mid] as R)) high = mid;
    else low = mid + 1;
  }
  return low;
}
