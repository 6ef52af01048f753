import type { CompareOperator } from '../../filter/ast.js';
import { parseDateTime } from '../../schema/date-time.js';
import { foldCase } from '../../schema/fold-case.js';
import { escapeLike, type SqlParams } from './sql-params.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

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
  /**
   * The same value in the folded copy of the document (`foldedJson`), or the column of its
   * folding: what a caseIgnore comparison reads.
   */
  readonly folded?: JsonRef;
}

/** Returns the SQL operator of an ordering comparison, or `undefined` for the others. */
export function orderingOperator(op: CompareOperator): string | undefined {
  return ORDERING[op];
}

/**
 * Compares a text expression with a string value exactly; `null` when `lhs` is SQL NULL (the
 * caller decides how to make it two-valued). A caseIgnore comparison passes the folded text
 * and the literal folded by `foldCase` (see {@link compareString}): the database never folds.
 *
 * @see RFC 7644 §3.4.2.2
 */
export function compareText(
  lhs: string,
  op: Exclude<CompareOperator, 'ne'>,
  value: string,
  params: SqlParams,
): string {
  switch (op) {
    case 'eq':
      return `${lhs} = ${params.add(value)}`;
    case 'co':
      return `${lhs} LIKE ${params.add(`%${escapeLike(value)}%`)}`;
    case 'sw':
      return `${lhs} LIKE ${params.add(`${escapeLike(value)}%`)}`;
    case 'ew':
      return `${lhs} LIKE ${params.add(`%${escapeLike(value)}`)}`;
    default:
      // Byte order, as the ids and every other key compare in the core.
      return `${lhs} COLLATE "C" ${ORDERING[op] ?? '='} ${params.add(value)}`;
  }
}

/**
 * Returns the text a string comparison or sort reads: the value as stored for a caseExact
 * attribute, else its folding by `foldCase` (the folded copy of the document, or a key
 * column), which is how the core and the memory store compare regardless of case.
 *
 * @throws UnsupportedFilterError for a caseIgnore value kept without its folding.
 */
export function comparedText(ref: JsonRef, caseExact: boolean): string {
  if (caseExact) return ref.text;
  if (!ref.folded) throw new UnsupportedFilterError('A value kept without its case folding');
  return ref.folded.text;
}

/** Compares a string value as {@link compareText} does, regardless of case unless `caseExact`. */
export function compareString(
  ref: JsonRef,
  caseExact: boolean,
  op: Exclude<CompareOperator, 'ne'>,
  value: string,
  params: SqlParams,
): string {
  return compareText(comparedText(ref, caseExact), op, caseExact ? value : foldCase(value), params);
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
