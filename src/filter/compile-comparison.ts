import { foldCase } from '../schema/fold-case.js';
import type { AttributeDefinition } from '../schema/types.js';
import type { CompareOperator } from './ast.js';
import { parseDateTime } from '../schema/date-time.js';
import { textCost, type WorkMeter } from './work-meter.js';

/** Tests one value; with a `meter`, charges what the test costs before running it. */
export type ValueComparison = (value: unknown, meter?: WorkMeter) => boolean;

/**
 * Builds the test of one value (never null, never an array) against a checked, non-null
 * literal, following the attribute's type and `caseExact`. `ne` is built by the caller from
 * `eq`, since it also concerns absent values. A test of text costs its characters, folded ones
 * dearer when they are not ASCII (see `WORK_COSTS`).
 *
 * @see RFC 7644 §3.4.2.2
 */
export function compileComparison(
  definition: AttributeDefinition,
  op: CompareOperator,
  literal: string | number | boolean,
): ValueComparison {
  switch (definition.type) {
    case 'boolean':
      return charged(false, (v) => v === literal);
    case 'integer':
    case 'decimal':
      return charged(false, numeric(op, literal as number));
    case 'dateTime':
      return charged(false, dateTime(op, parseDateTime(literal as string)));
    default:
      return definition.caseExact
        ? charged(false, exactString(op, literal as string))
        : charged(true, foldedString(op, literal as string));
  }
}

// The test with the characters of a text value charged first (the visit is the caller's).
function charged(folded: boolean, test: (value: unknown) => boolean): ValueComparison {
  return (v, meter) => {
    if (meter && typeof v === 'string') meter.spend(textCost(v, folded));
    return test(v);
  };
}

function numeric(op: CompareOperator, n: number): (value: unknown) => boolean {
  switch (op) {
    case 'gt':
      return (v) => typeof v === 'number' && v > n;
    case 'ge':
      return (v) => typeof v === 'number' && v >= n;
    case 'lt':
      return (v) => typeof v === 'number' && v < n;
    case 'le':
      return (v) => typeof v === 'number' && v <= n;
    default:
      return (v) => v === n;
  }
}

function dateTime(op: CompareOperator, t: number): (value: unknown) => boolean {
  const at = (v: unknown) => (typeof v === 'string' ? parseDateTime(v) : NaN);
  switch (op) {
    case 'gt':
      return (v) => at(v) > t;
    case 'ge':
      return (v) => at(v) >= t;
    case 'lt':
      return (v) => at(v) < t;
    case 'le':
      return (v) => at(v) <= t;
    default:
      return (v) => at(v) === t;
  }
}

function exactString(op: CompareOperator, s: string): (value: unknown) => boolean {
  switch (op) {
    case 'co':
      return (v) => typeof v === 'string' && v.includes(s);
    case 'sw':
      return (v) => typeof v === 'string' && v.startsWith(s);
    case 'ew':
      return (v) => typeof v === 'string' && v.endsWith(s);
    case 'gt':
      return (v) => typeof v === 'string' && v > s;
    case 'ge':
      return (v) => typeof v === 'string' && v >= s;
    case 'lt':
      return (v) => typeof v === 'string' && v < s;
    case 'le':
      return (v) => typeof v === 'string' && v <= s;
    default:
      return (v) => v === s;
  }
}

// caseIgnore strings compare by scimkit's one folding, the same that keys userNames in every
// store, so the filter engine and a store's index never disagree (ς and σ, ẞ and ß).
function foldedString(op: CompareOperator, raw: string): (value: unknown) => boolean {
  const s = foldCase(raw);
  switch (op) {
    case 'co':
      return (v) => typeof v === 'string' && foldCase(v).includes(s);
    case 'sw':
      return (v) => typeof v === 'string' && foldCase(v).startsWith(s);
    case 'ew':
      return (v) => typeof v === 'string' && foldCase(v).endsWith(s);
    case 'gt':
      return (v) => typeof v === 'string' && foldCase(v) > s;
    case 'ge':
      return (v) => typeof v === 'string' && foldCase(v) >= s;
    case 'lt':
      return (v) => typeof v === 'string' && foldCase(v) < s;
    case 'le':
      return (v) => typeof v === 'string' && foldCase(v) <= s;
    default:
      return (v) => typeof v === 'string' && foldCase(v) === s;
  }
}

/**
 * Tells whether a value counts as present for `pr`: not null, not `""`, not an empty array,
 * and for a complex value, some present sub-attribute. Exported by `scimkit/filter` for a store
 * that evaluates `pr` itself, so that it agrees with the in-memory evaluator.
 *
 * @see RFC 7644 §3.4.2.2
 */
export function isPresentValue(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (Array.isArray(value)) return value.some(isPresentValue);
  if (typeof value === 'object') return Object.values(value).some(isPresentValue);
  return true;
}
