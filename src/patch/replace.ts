import { coerceMany } from './coerce-value.js';
import { deltaValues } from './kept-apart.js';
import { setMatching, settingOperation } from './set-value.js';

/**
 * `replace` (RFC 7644 §3.5.2.3): a singular attribute is set (a complex one only in the
 * sub-attributes given); a multi-valued one without filter gets exactly the values given; with
 * a filter, each match is replaced whole (what the filter pins stays unless the value says
 * otherwise), or with a sub-attribute, only that sub-attribute of each match. A replace of an
 * unassigned attribute is an add.
 */
export const replace = settingOperation(
  'replace',
  (ctx, t, list, value) => {
    if (t.filter || t.sub) return setMatching(ctx, t, list, value, true);
    list.reset(coerceMany(t.attr, value, ctx, t.label) ?? []);
  },
  // Kept apart: the values given become the whole list (none given: no value is left).
  (ctx, t, plan, value) => plan.replace(deltaValues(ctx, t, value)),
);
