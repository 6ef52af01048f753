import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { Filter } from '../filter/ast.js';
import type { AttributeDefinition } from '../schema/types.js';
import { coerceMany } from './coerce-value.js';
import type { DeltaPlan, DeltaValue } from './delta-plan.js';
import type { PatchContext, Target } from './types.js';

// A store may keep a multi-valued attribute apart from the resource (a group's members, which
// may number 100,000): the engine then works on the resource without it and turns each
// operation on it into deltas (values in, values out, or a whole new list) instead of editing
// the values, so adding or removing one never reads the list. The operations that cannot be
// told without the stored values (a filter other than `value eq`, a sub-attribute path) stop
// the plan with `NeedsValues`; the caller then applies the message to the resource read with
// the list.

/** The attribute a PATCH plans as deltas, and the plan its operations build. */
export interface KeptApart {
  readonly attr: AttributeDefinition;
  readonly plan: DeltaPlan;
}

/** Thrown when an operation on a kept-apart attribute needs its stored values. */
export class NeedsValues extends Error {}

/**
 * Checks a sub-attribute path to a kept-apart attribute, the same for every operation: none
 * can be planned without the values it changes in place.
 *
 * @throws ScimError 400 `mutability` for a sub-attribute path to an immutable sub-attribute:
 *   a value is added or removed whole, never changed in place (RFC 7643 §4.2, §8.7.1).
 * @throws NeedsValues for any other sub-attribute path.
 */
export function subAttributeDelta(t: Target): void {
  const { sub } = t;
  if (sub === undefined) return;
  if (sub.mutability === 'immutable') {
    throw scimErrors.mutability(
      `"${t.attr.name}.${sub.name}" is immutable: a member is added or removed whole, never changed.`,
    );
  }
  throw new NeedsValues();
}

/**
 * Refuses a filtered `add` or `replace` that names another value than its filter's `value eq`
 * (it would re-point a matched value, whose `value` is immutable), then asks for the values:
 * it changes the matched values in place.
 *
 * @throws ScimError 400 `mutability`; otherwise NeedsValues.
 */
export function filteredSetDelta(ctx: PatchContext, t: Target, op: string, value: unknown): never {
  const ids = t.filter && filteredValues(t.filter, ctx, t.attr);
  const given = deltaValues(ctx, t, value);
  if (ids && given.every((m) => ids.includes(m.value))) throw new NeedsValues();
  throw scimErrors.mutability(
    `"${op}" of "${t.attr.name}[...]" would change a member in place, and a member's "value" is immutable: remove the member and add another.`,
  );
}

/**
 * Reads the values of an operation with the attribute's value rules (as the PATCH engine and
 * POST do): each must carry a `value`; other sub-attributes are the store's to decide.
 *
 * @throws ScimError 400 `invalidValue`.
 */
export function deltaValues(ctx: PatchContext, t: Target, value: unknown): DeltaValue[] {
  const list = coerceMany(t.attr, value, ctx, t.attr.name) ?? [];
  return list.map((item) => {
    const id = isJsonObject(item) ? item.value : undefined;
    if (typeof id !== 'string' || id === '')
      throw scimErrors.invalidValue(
        `Each of "${t.attr.name}" must have a "value": the member's id.`,
      );
    return { value: id };
  });
}

/**
 * Returns the `value`s a filter names: `value eq "id"`, or several joined by `or` (the filter
 * every identity provider removes a member with); `undefined` for any other filter.
 */
export function filteredValues(
  filter: Filter,
  ctx: PatchContext,
  attr: AttributeDefinition,
): string[] | undefined {
  if (filter.kind === 'or') {
    const left = filteredValues(filter.left, ctx, attr);
    const right = left && filteredValues(filter.right, ctx, attr);
    return right && [...(left as string[]), ...right];
  }
  if (filter.kind !== 'compare' || filter.op !== 'eq' || typeof filter.value !== 'string')
    return undefined;
  const { path } = filter;
  if (path.schema !== undefined || path.subAttribute !== undefined) return undefined;
  const sub = ctx.index.subAttribute(attr, path.attribute);
  // `value` is caseExact: the id as written is the one value it finds.
  if (sub?.name !== 'value' || sub.caseExact !== true) return undefined;
  return [filter.value];
}
