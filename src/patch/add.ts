import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import { coerceMany } from './coerce-value.js';
import { deltaValues } from './kept-apart.js';
import { exclusivePrimary, sameValue, sameValueLookups } from './multi-valued.js';
import { setMatching, settingOperation } from './set-value.js';
import type { Touched, ValueTest } from './types.js';

/**
 * `add` (RFC 7644 §3.5.2.1): a singular attribute is set; a multi-valued one gains each value
 * unless the same member is already there (same `value`, regardless of case unless caseExact,
 * and the same `type` where both have one), in which case the value merges into it and keeps
 * the member's own spelling of `value`; with a filter, the value merges into every match.
 */
export const add = settingOperation(
  'add',
  (ctx, t, list, value) => {
    if (t.filter || t.sub) return setMatching(ctx, t, list, value, false);
    const { attr } = t;
    const touched: Touched[] = [];
    for (const v of coerceMany(attr, value, ctx, t.label) ?? []) {
      const same: ValueTest = (el, meter) => sameValue(ctx, attr, el, v, meter);
      const slot = list.find(same, sameValueLookups(ctx, attr, v))[0];
      if (slot === undefined) {
        touched.push({ slot: list.push(v), value: v });
        continue;
      }
      // The same member again merges into the one there, which keeps its own spelling of `value`.
      const existing = list.at(slot);
      const merged =
        isJsonObject(v) && isJsonObject(existing)
          ? { ...existing, ...v, ...('value' in existing ? { value: existing.value } : {}) }
          : existing;
      list.set(slot, merged);
      touched.push({ slot, value: merged });
    }
    exclusivePrimary(list, touched, t.label);
  },
  // Kept apart: the values join the plan, each once.
  (ctx, t, plan, value, hasValue) => {
    if (!hasValue) throw scimErrors.invalidValue(`"add" of "${t.label}" needs a "value".`);
    plan.add(deltaValues(ctx, t, value));
  },
);
