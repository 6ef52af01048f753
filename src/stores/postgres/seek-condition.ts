import type { ListSeek } from '../../contracts/user-store.js';

/** The order a keyset page reads in: the `sortBy` key expression, or `id` alone. */
export interface SeekOrder {
  /** The SQL expression of the sort key (see `sortKey`); absent: ordered by id. */
  readonly key?: string;
  readonly descending: boolean;
  /** Whether `key` may be NULL (see `sortKeyNullable`). */
  readonly nullable: boolean;
}

/** A keyset condition and its parameters. */
export interface SeekCondition {
  /** The SQL condition that keeps the rows after (or before) the place. */
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Builds the condition that keeps the rows after `seek.from` in the page's order (or, backward,
 * before it), with its parameters numbered from `$at`. The order is that of `pageStatement`:
 * by key (NULLs last ascending, first descending), then by id ascending. The bound on the key
 * comes first and alone (`k >= $a AND (...)`), so an index on the key (the primary key for id,
 * the userName key index) starts the scan at the place rather than at the first row.
 *
 * @returns `undefined` for a first page (no place).
 */
export function seekCondition(
  seek: ListSeek,
  order: SeekOrder,
  at: number,
): SeekCondition | undefined {
  const from = seek.from;
  if (from === undefined) return undefined;
  const backward = seek.direction === 'backward';
  const idAfter = backward ? '<' : '>';
  const b = `$${at}`;
  if (order.key === undefined) return { sql: `id ${idAfter} ${b}`, params: [from.id] };
  const k = order.key;
  // "Later in the order" on the key: larger ascending, smaller descending.
  const later = order.descending === backward;
  const a = `$${at + 1}`;
  if (from.key === undefined) {
    // The place had no value: NULLs sit together at the end (ascending) or start (descending),
    // so the rows with a value are all ahead or all behind.
    const valuesAhead = order.descending !== backward;
    return {
      sql: valuesAhead
        ? `(${k} IS NOT NULL OR id ${idAfter} ${b})`
        : `(${k} IS NULL AND id ${idAfter} ${b})`,
      params: [from.id],
    };
  }
  const strict = later ? '>' : '<';
  const bound = `${k} ${strict}= ${a} AND (${k} ${strict} ${a} OR id ${idAfter} ${b})`;
  // NULLs come after every value ascending: a forward page (or a backward one, descending)
  // reaches them too.
  const nulls = order.nullable && later ? ` OR ${k} IS NULL` : '';
  return { sql: `((${bound})${nulls})`, params: [from.id, String(from.key)] };
}
