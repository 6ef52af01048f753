import { isJsonObject, jsonEqual } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import { foldCase } from '../schema/fold-case.js';
import { jsonCost, textCost, type WorkMeter } from '../filter/work-meter.js';
import type { AttributeDefinition } from '../schema/types.js';
import type { PatchContext, Touched, ValueLookup } from './types.js';
import type { ValueList } from './value-list.js';

/**
 * Keeps at most one value `primary`: a value this operation made primary wins, and the others
 * lose the flag (RFC 7643 §2.4, RFC 7644 §3.5.2).
 *
 * @throws ScimError 400 `invalidValue` when the operation wrote two primary values.
 */
export function exclusivePrimary(
  list: ValueList,
  touched: readonly Touched[],
  label: string,
): void {
  const winners = touched.filter((t) => isJsonObject(t.value) && t.value.primary === true);
  if (winners.length > 1)
    throw scimErrors.invalidValue(`"${label}" would have more than one primary value.`);
  const winner = winners[0];
  if (winner === undefined) return;
  for (const slot of list.primaries()) {
    if (slot !== winner.slot) list.set(slot, { ...(list.at(slot) as object), primary: false });
  }
}

// Regardless of case means foldCase, as in filters and userName keys: `ς` and `σ` are one letter.
function sameText(a: unknown, b: unknown, caseExact: boolean, meter: WorkMeter | undefined) {
  if (typeof a === 'string' && typeof b === 'string')
    meter?.spend(textCost(a, !caseExact) + textCost(b, !caseExact));
  if (a === b) return true;
  return (
    !caseExact && typeof a === 'string' && typeof b === 'string' && foldCase(a) === foldCase(b)
  );
}

// Deep equality, charged at what comparing `b` member by member may cost.
function sameJson(a: unknown, b: unknown, meter: WorkMeter | undefined): boolean {
  meter?.spend(jsonCost(b));
  return jsonEqual(a, b);
}

/**
 * Returns the equality {@link sameValue} implies for `value`, so the members it can be the same
 * as are looked up in an index; none when they must be scanned (a complex value without
 * `value`).
 */
export function sameValueLookups(
  ctx: PatchContext,
  attr: AttributeDefinition,
  value: unknown,
): ValueLookup[] {
  if (attr.type !== 'complex') return [{ sub: undefined, value }];
  const valueDef = ctx.index.subAttribute(attr, 'value');
  if (!valueDef || valueDef.multiValued || !isJsonObject(value) || value.value === undefined)
    return [];
  return [{ sub: valueDef, value: value.value }];
}

/**
 * Tells whether two values of a multi-valued attribute are the same member: equal `value` (and
 * equal `type` where both have one) for complex values that have a `value`, else deep equality.
 * The text compared is charged to `meter` first.
 */
export function sameValue(
  ctx: PatchContext,
  attr: AttributeDefinition,
  a: unknown,
  b: unknown,
  meter?: WorkMeter,
): boolean {
  if (attr.type !== 'complex') return sameText(a, b, attr.caseExact, meter);
  if (!isJsonObject(a) || !isJsonObject(b)) return sameJson(a, b, meter);
  const valueDef = ctx.index.subAttribute(attr, 'value');
  if (!valueDef || a.value === undefined || b.value === undefined) return sameJson(a, b, meter);
  if (!sameText(a.value, b.value, valueDef.caseExact, meter)) return false;
  return a.type === undefined || b.type === undefined || sameText(a.type, b.type, false, meter);
}
