import { keepImmutable } from '../schema/check-immutable.js';
import { scimErrors } from '../errors/index.js';
import type { Draft } from './draft.js';
import { subAttributeDelta } from './kept-apart.js';
import type { PatchOperation } from './patch-operation.js';
import type { PatchContext, Target } from './types.js';

/**
 * Applies one operation to one resolved attribute of the draft: the checks every operation
 * shares (readOnly, a `value` where one is needed, writeOnly values kept apart, the one
 * immutability rule) around what the operation itself does (RFC 7644 §3.5.2.1–3).
 *
 * @throws ScimError 400 `mutability`, `invalidValue`, `noTarget` or `invalidSyntax`.
 */
export function applyToTarget(
  draft: Draft,
  ctx: PatchContext,
  op: PatchOperation,
  t: Target,
  value: unknown,
  hasValue: boolean,
): void {
  const { attr, sub } = t;
  if (attr.mutability === 'readOnly' || sub?.mutability === 'readOnly') {
    throw scimErrors.mutability(`"${t.label}" is readOnly and cannot be changed by PATCH.`);
  }
  if (attr === draft.keptApart?.attr) {
    subAttributeDelta(t);
    return op.delta(ctx, t, draft.keptApart.plan, value, hasValue);
  }
  if (op.needsValue && !hasValue)
    throw scimErrors.invalidValue(`"${op.name}" of "${t.label}" needs a "value".`);
  if (attr.mutability === 'writeOnly' || sub?.mutability === 'writeOnly') {
    return writeOnly(draft, ctx, op, t, value);
  }
  if (attr.multiValued) {
    const list = draft.list(t.schema, attr);
    // Only an immutable attribute needs the values before and after; others skip the copies.
    const before = attr.mutability === 'immutable' ? list.toArray() : undefined;
    op.multiValued(ctx, t, list, value, hasValue);
    if (before !== undefined) {
      const after = list.toArray();
      const kept = keepImmutable(attr, before, after, canonicalPath(ctx, t), 'refuse');
      if (kept !== after) list.reset(Array.isArray(kept) ? kept : [kept]);
    }
    draft.settle(t.schema, attr, list);
    return;
  }
  const container = draft.container(t.schema);
  const current = container[attr.name];
  const changed = op.singular(ctx, t, current, value);
  const next = keepImmutable(attr, current, changed, canonicalPath(ctx, t), 'refuse');
  if (next === undefined) delete container[attr.name];
  else container[attr.name] = next;
}

// A writeOnly value is never stored (RFC 7643 §7): it is handed back to the caller, which
// passes it on (the core: `password` to the host's onPassword hook).
function writeOnly(draft: Draft, ctx: PatchContext, op: PatchOperation, t: Target, value: unknown) {
  if (t.filter) {
    throw scimErrors.invalidPath(`"${t.label}" is writeOnly: it has no stored values to filter.`);
  }
  const coerced = op.writeOnly(ctx, t, value);
  const path = `${canonicalPath(ctx, t)}${t.sub ? `.${t.sub.name}` : ''}`;
  if (coerced === undefined) delete draft.writeOnly[path];
  else draft.writeOnly[path] = coerced;
}

// How errors name an attribute whatever the client's spelling, the same as PUT's.
function canonicalPath(ctx: PatchContext, t: Target): string {
  return t.schema === ctx.index.core ? t.attr.name : `${t.schema.id}:${t.attr.name}`;
}
