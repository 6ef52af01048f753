import { isJsonObject, jsonEqual } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { AttributeDefinition } from '../schema/types.js';
import type { PatchContext } from './patch-context.js';

/**
 * Keeps at most one value `primary`: a value this operation made primary wins, and the others
 * lose the flag (RFC 7643 §2.4, RFC 7644 §3.5.2).
 */
export function exclusivePrimary(list: unknown[], touched: unknown[], label: string): unknown[] {
  const winners = touched.filter((v) => isJsonObject(v) && v.primary === true);
  if (winners.length > 1)
    throw scimErrors.invalidValue(`"${label}" would have more than one primary value.`);
  const winner = winners[0];
  if (winner === undefined) return list;
  return list.map((el) =>
    el !== winner && isJsonObject(el) && el.primary === true ? { ...el, primary: false } : el,
  );
}

function sameText(a: unknown, b: unknown, caseExact: boolean): boolean {
  if (a === b) return true;
  return (
    !caseExact &&
    typeof a === 'string' &&
    typeof b === 'string' &&
    a.toLowerCase() === b.toLowerCase()
  );
}

/**
 * Tells whether two values of a multi-valued attribute are the same member: equal `value` (and
 * equal `type` where both have one) for complex values that have a `value`, else deep equality.
 */
export function sameValue(
  ctx: PatchContext,
  attr: AttributeDefinition,
  a: unknown,
  b: unknown,
): boolean {
  if (attr.type !== 'complex') return sameText(a, b, attr.caseExact);
  if (!isJsonObject(a) || !isJsonObject(b)) return jsonEqual(a, b);
  const valueDef = ctx.index.subAttribute(attr, 'value');
  if (!valueDef || a.value === undefined || b.value === undefined) return jsonEqual(a, b);
  if (!sameText(a.value, b.value, valueDef.caseExact)) return false;
  return a.type === undefined || b.type === undefined || sameText(a.type, b.type, false);
}
