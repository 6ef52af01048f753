import type { CompareOperator } from '../../filter/ast.js';
import { parseDateTime } from '../../schema/date-time.js';
import { escapeLike, type SqlParams } from './sql-params.js';

/** The operators that order values. */
const ORDERING: Partial<Record<CompareOperator, string>> = { gt: '>', ge: '>=', lt: '<', le: '<=' };

/** A value in the stored document as SQL: its jsonb form and its text form. */
export interface JsonRef {
  readonly json: string;
  readonly text: string;
  /**
   * The text is a NOT NULL text column (a membership's member id): a comparison on it is
   * never NULL and stays bare, so an index on the column can answer it.
   */
  readonly column?: true;
}

/** Returns the SQL operator of an ordering comparison, or `undefined` for the others. */
export function orderingOperator(op: CompareOperator): string | undefined {
  return ORDERING[op];
}

/**
 * Compares a text expression with a string value; `null` when `lhs` is SQL NULL (the caller
 * decides how to make it two-valued). Case-insensitive comparisons lower both sides with the
 * database's `lower()`; `userName` never comes here case-insensitively (its key column holds
 * scimkit's own folding).
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

// A value is present when some scalar in it is a number, a boolean or a non-empty string: the
// evaluator's rule for null, "", [] and complex values without present sub-attributes.
const PRESENT_PATH = `'strict $.** ? (@.type() == "number" || @.type() == "boolean" || (@.type() == "string" && @ != ""))'`;

/**
 * Tells whether a jsonb value is present in the sense of `pr`: not null, not `""`, not `[]`,
 * and for a complex value, some present sub-attribute.
 *
 * @see RFC 7644 §3.4.2.2
 */
export function jsonPresent(ref: JsonRef): string {
  return `COALESCE(jsonb_path_exists(${ref.json}, ${PRESENT_PATH}), false)`;
}

/** Tells whether a jsonb value is there at all (not missing, not JSON null). */
export function jsonAssigned(ref: JsonRef): string {
  return `COALESCE(jsonb_typeof(${ref.json}) <> 'null', false)`;
}

/** Normalises a dateTime filter value to ISO 8601, or `undefined` when it is not one. */
export function toInstant(value: string): string | undefined {
  const ms = parseDateTime(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** Makes a JSON array expression safe for `jsonb_array_elements`, which rejects non-arrays. */
export const asArray = (json: string): string =>
  `CASE WHEN jsonb_typeof(${json}) = 'array' THEN ${json} ELSE '[]'::jsonb END`;
