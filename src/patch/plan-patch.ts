import { isJsonObject } from '../json/json-value.js';
import type { AttributeDefinition } from '../schema/types.js';
import { applyPatchIn } from './apply-patch.js';
import { DeltaPlan } from './delta-plan.js';
import { NeedsValues } from './kept-apart.js';
import type { PatchContext } from './types.js';

type Json = Record<string, unknown>;

/** A PATCH on a resource whose store keeps one multi-valued attribute apart. */
export interface PatchPlan {
  /** The resource's attributes after the operations, without the kept-apart one; `null`: unchanged. */
  readonly attributes: Json | null;
  /** What the operations do to the kept-apart attribute. */
  readonly values: DeltaPlan;
}

/**
 * Applies a PatchOp message to a resource read without `apart`, one of its multi-valued
 * attributes that the store keeps apart (a group's members): the operations on it become a
 * delta plan (values added, values removed, or a whole new list), read with the engine's own
 * paths, filters, value rules and dialect rules, so that adding or removing one value never
 * reads the list. The other operations apply as {@link applyPatchIn} applies them.
 *
 * Returns `undefined` when an operation on `apart` needs its stored values (a filter other
 * than `value eq`, a sub-attribute path): apply the message with
 * {@link planPatchWithValues} to the resource read with them.
 *
 * @throws ScimError 400 as `applyPatch` does.
 * @see RFC 7644 §3.5.2
 */
export function planPatch(
  ctx: PatchContext,
  resource: Readonly<Json>,
  body: unknown,
  apart: AttributeDefinition,
): PatchPlan | undefined {
  const values = new DeltaPlan();
  try {
    const result = applyPatchIn(ctx, resource, body, { attr: apart, plan: values });
    return { attributes: result.changed ? result.resource : null, values };
  } catch (error) {
    if (error instanceof NeedsValues) return undefined;
    throw error;
  }
}

/**
 * Applies a PatchOp message to a resource read with `apart`, a core multi-valued attribute
 * the store keeps apart, and returns the new attributes without it and its change as deltas.
 *
 * @throws ScimError 400 as `applyPatch` does.
 */
export function planPatchWithValues(
  ctx: PatchContext,
  resource: Readonly<Json>,
  body: unknown,
  apart: AttributeDefinition,
): PatchPlan {
  const result = applyPatchIn(ctx, resource, body);
  const { [apart.name]: before, ...restBefore } = resource;
  const { [apart.name]: after, ...restAfter } = result.resource;
  const values = new DeltaPlan();
  const old = new Set(valuesOf(before));
  const next = valuesOf(after);
  const kept = new Set(next);
  values.remove([...old].filter((id) => !kept.has(id)));
  values.add(next.filter((id) => !old.has(id)).map((value) => ({ value })));
  const changed = result.changed && JSON.stringify(restBefore) !== JSON.stringify(restAfter);
  return { attributes: changed ? restAfter : null, values };
}

function valuesOf(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((m) => (isJsonObject(m) && typeof m.value === 'string' ? [m.value] : []));
}
