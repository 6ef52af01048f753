import type { CompareOperator } from '../../filter/ast.js';
import { escapeLike, type SqlParams } from './sql-params.js';

/** The operators that order values. */
const ORDERING: Partial<Record<CompareOperator, string>> = { gt: '>', ge: '>=', lt: '<', le: '<=' };

/** A value in the stored document as SQL: its jsonb form and its text form. */
export interface JsonRef {
  readonly json: string;
  readonly text: string;
}

/** Returns the SQL operator of an ordering comparison, or `undefined` for the others. */
export function orderingOperator(op: CompareOperator): string | undefined {
  return ORDERING[op];
}

/**
 * Compares a text expression with a string value; `null` when `lhs` is SQL NULL (the caller
 * decides how to make it two-valued). Case-insensitive comparisons lower both sides, so
 * `lower(user_name) = lower($n)` is the expression its unique index covers.
 *
 * @see RFC 7644 §3.4.2.2
 */
export function compareText(
  lhs: string,
  caseExact: boolean,
  op: Exclude<CompareOperator, 'ne'>,
  value: string,
  params: SqlParams,
): string {
  const fold = (sql: string) => (caseExact ? sql : `lower(${sql})`);
  const left = fold(lhs);
  switch (op) {
    case 'eq':
      return `${left} = ${fold(params.add(value))}`;
    case 'co':
      return `${left} LIKE ${fold(params.add(`%${escapeLike(value)}%`))}`;
    case 'sw':
      return `${left} LIKE ${fold(params.add(`${escapeLike(value)}%`))}`;
    case 'ew':
      return `${left} LIKE ${fold(params.add(`%${escapeLike(value)}`))}`;
    default:
      // Byte order, as the ids and every other key compare in the core.
      return `${left} COLLATE "C" ${ORDERING[op] ?? '='} ${fold(params.add(value))}`;
  }
}

/** Tells whether a jsonb value is present in the sense of `pr`: not null, "", [] or {}. */
export function jsonPresent(ref: JsonRef): string {
  return `COALESCE(${ref.json} NOT IN ('null'::jsonb, '""'::jsonb, '[]'::jsonb, '{}'::jsonb), false)`;
}

/** Normalises a dateTime filter value to ISO 8601, or `undefined` when it is not one. */
export function toInstant(value: string): string | undefined {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
