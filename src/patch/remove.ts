import { scimErrors } from '../errors/index.js';
import type { SchemaDefinition } from '../schema/types.js';
import { applyToTarget } from './apply-to-target.js';
import { coerceMany } from './coerce-value.js';
import type { Draft } from './draft.js';
import { mergeComplex } from './merge-complex.js';
import { sameValue, sameValueLookups } from './multi-valued.js';
import type { PatchOperation } from './patch-operation.js';
import { deltaValues, filteredValues, NeedsValues } from './kept-apart.js';
import type { PatchContext, Target, ValueTest } from './types.js';

/**
 * `remove` (RFC 7644 §3.5.2.2): a singular attribute or sub-attribute becomes unassigned; a
 * multi-valued one loses all its values, the values its filter matches (none matched is
 * success), that sub-attribute of each match, or (dialect rule `removeWithValue`) the members
 * given as `value`. A path is required.
 */
export const remove: PatchOperation = {
  name: 'remove',
  needsValue: false,
  pathLess() {
    throw scimErrors.noTarget('"remove" needs a "path" (RFC 7644 §3.5.2.2).');
  },
  extension(draft, ctx, schema) {
    clearExtension(draft, ctx, schema);
  },
  singular(ctx, t, current) {
    // A filtered singular target (`managerValueFilter`): the value goes only if it matches.
    if (t.predicate) {
      const next = t.predicate(current) ? undefined : current;
      ctx.trace?.({ rule: 'managerValueFilter', where: '.path', received: t.label, became: next });
      return next;
    }
    return t.sub ? mergeComplex(current, { [t.sub.name]: undefined }) : undefined;
  },
  multiValued(ctx, t, list, value, hasValue) {
    const { attr, sub } = t;
    if (t.filter || sub) {
      const match = t.predicate ?? (() => true);
      for (const slot of list.find(match, t.lookups)) {
        const next = sub ? mergeComplex(list.at(slot), { [sub.name]: undefined }) : undefined;
        if (next === undefined) list.remove(slot);
        else list.set(slot, next);
      }
      return;
    }
    if (!hasValue || value === null) return list.reset([]);
    removeWithValue(ctx, t, value);
    for (const gone of coerceMany(attr, value, ctx, t.label) ?? []) {
      const same: ValueTest = (el, meter) => sameValue(ctx, attr, el, gone, meter);
      for (const slot of list.find(same, sameValueLookups(ctx, attr, gone))) list.remove(slot);
    }
  },
  delta(ctx, t, plan, value, hasValue) {
    if (t.filter) {
      const gone = filteredValues(t.filter, ctx, t.attr);
      if (!gone) throw new NeedsValues();
      return plan.remove(gone);
    }
    if (!hasValue || value === null) return plan.replace([]);
    removeWithValue(ctx, t, value);
    plan.remove(deltaValues(ctx, t, value).map((v) => v.value));
  },
  writeOnly() {
    return undefined;
  },
};

// Dialect rule `removeWithValue`: the values given leave a multi-valued attribute; without the
// rule, a remove names what it removes by a filter in the path.
function removeWithValue(ctx: PatchContext, t: Target, value: unknown): void {
  if (!ctx.rules.removeWithValue) {
    throw scimErrors.invalidSyntax(
      `"remove" of "${t.label}" takes a filter in the path, not a "value".`,
    );
  }
  ctx.trace?.({ rule: 'removeWithValue', where: '.value', received: value, became: undefined });
}

/** Removes every attribute of an extension, each through the checks of a `remove` of its path. */
export function clearExtension(draft: Draft, ctx: PatchContext, schema: SchemaDefinition): void {
  for (const attr of schema.attributes) {
    if (draft.has(schema, attr)) {
      const target = { schema, attr, label: `${schema.id}:${attr.name}` };
      applyToTarget(draft, ctx, remove, target, undefined, false);
    }
  }
}
