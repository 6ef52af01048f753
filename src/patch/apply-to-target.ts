import { isJsonObject } from '../json/json-value.js';
import { keepImmutable } from '../schema/check-immutable.js';
import { scimErrors } from '../errors/index.js';
import { exclusivePrimary, sameValue, sameValueLookups } from './multi-valued.js';
import { coerceMany, coerceOne, stripUndefined } from './coerce-value.js';
import type { Draft } from './draft.js';
import { equalitiesOf } from './match-element.js';
import type { PatchContext, PatchOpName, Target, Touched } from './types.js';
import type { ValueList } from './value-list.js';

type Json = Record<string, unknown>;

/**
 * Applies one operation to one resolved attribute of the draft, with the semantics of
 * RFC 7644 §3.5.2.1–3 and the mutability rules of §3.5.2.
 *
 * @throws ScimError 400 `mutability`, `invalidValue`, `noTarget` or `invalidSyntax`.
 */
export function applyToTarget(
  draft: Draft,
  ctx: PatchContext,
  op: PatchOpName,
  t: Target,
  value: unknown,
  hasValue: boolean,
): void {
  const { attr, sub } = t;
  if (attr.mutability === 'readOnly' || sub?.mutability === 'readOnly') {
    throw scimErrors.mutability(`"${t.label}" is readOnly and cannot be changed by PATCH.`);
  }
  if (op !== 'remove' && !hasValue)
    throw scimErrors.invalidValue(`"${op}" of "${t.label}" needs a "value".`);
  if (attr.mutability === 'writeOnly' || sub?.mutability === 'writeOnly') {
    return writeOnly(draft, ctx, op, t, value);
  }
  if (attr.multiValued) {
    const list = draft.list(t.schema, attr);
    // Only an immutable attribute needs the values before and after; others skip the copies.
    const before = attr.mutability === 'immutable' ? list.toArray() : undefined;
    multi(ctx, op, t, list, value, hasValue);
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
  const changed = singular(ctx, op, t, current, value);
  const next = keepImmutable(attr, current, changed, canonicalPath(ctx, t), 'refuse');
  if (next === undefined) delete container[attr.name];
  else container[attr.name] = next;
}

// A writeOnly value is never stored (RFC 7643 §7): it is handed back to the caller, which
// passes it on (the core: `password` to the host's onPassword hook). Nothing is kept for a remove.
function writeOnly(draft: Draft, ctx: PatchContext, op: PatchOpName, t: Target, value: unknown) {
  if (t.filter) {
    throw scimErrors.invalidPath(`"${t.label}" is writeOnly: it has no stored values to filter.`);
  }
  if (op === 'remove') return;
  const def = t.sub ?? t.attr;
  const coerced = def.multiValued
    ? coerceMany(def, value, ctx, t.label)
    : coerceOne(def, value, ctx, t.label);
  const path = `${canonicalPath(ctx, t)}${t.sub ? `.${t.sub.name}` : ''}`;
  if (coerced === undefined) delete draft.writeOnly[path];
  else draft.writeOnly[path] = coerced;
}

// How errors name an attribute whatever the client's spelling, the same as PUT's.
function canonicalPath(ctx: PatchContext, t: Target): string {
  return t.schema === ctx.index.core ? t.attr.name : `${t.schema.id}:${t.attr.name}`;
}

function merge(current: unknown, patch: unknown): Json | undefined {
  const out: Json = isJsonObject(current) ? { ...current } : {};
  if (isJsonObject(patch)) {
    for (const k of Object.keys(patch)) {
      if (patch[k] === undefined) delete out[k];
      else out[k] = patch[k];
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function singular(
  ctx: PatchContext,
  op: PatchOpName,
  t: Target,
  current: unknown,
  value: unknown,
): unknown {
  const { attr, sub } = t;
  if (sub) {
    if (op === 'remove') return merge(current, { [sub.name]: undefined });
    return merge(current, { [sub.name]: coerceOne(sub, value, ctx, t.label) });
  }
  if (op === 'remove') return undefined;
  const v = coerceOne(attr, value, ctx, t.label);
  if (attr.type !== 'complex' || v === undefined) return v;
  // A complex attribute's sub-attributes not in the value stay as they are (RFC 7643 §3.5.2.3).
  return merge(current, v);
}

// Applies one operation to the working list of a multi-valued attribute, in place.
function multi(
  ctx: PatchContext,
  op: PatchOpName,
  t: Target,
  list: ValueList,
  value: unknown,
  hasValue: boolean,
): void {
  const { attr, sub } = t;
  if (!t.filter && !sub) {
    if (op === 'replace') return list.reset(coerceMany(attr, value, ctx, t.label) ?? []);
    if (op === 'remove') {
      if (!hasValue || value === null) return list.reset([]);
      if (!ctx.rules.removeWithValue) {
        throw scimErrors.invalidSyntax(
          `"remove" of "${t.label}" takes a filter in the path, not a "value".`,
        );
      }
      for (const gone of coerceMany(attr, value, ctx, t.label) ?? []) {
        const same = (el: unknown) => sameValue(ctx, attr, el, gone);
        for (const slot of list.find(same, sameValueLookups(ctx, attr, gone))) list.remove(slot);
      }
      return;
    }
    const touched: Touched[] = [];
    for (const v of coerceMany(attr, value, ctx, t.label) ?? []) {
      const same = (el: unknown) => sameValue(ctx, attr, el, v);
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
    return exclusivePrimary(list, touched, t.label);
  }
  const match = t.predicate ?? (() => true);
  if (op === 'remove') {
    for (const slot of list.find(match, t.lookups)) {
      const next = sub ? merge(list.at(slot), { [sub.name]: undefined }) : undefined;
      if (next === undefined) list.remove(slot);
      else list.set(slot, next);
    }
    return;
  }
  const change: unknown = sub
    ? { [sub.name]: coerceOne(sub, value, ctx, t.label) }
    : coerceOne(attr, value, ctx, t.label);
  const matches = list.find(match, t.lookups);
  if (matches.length === 0) {
    const empty = sub ? (change as Json)[sub.name] === undefined : change === undefined;
    if (empty) return;
    const created = stripUndefined({ ...pinned(ctx, t), ...(isJsonObject(change) ? change : {}) });
    if (t.predicate && !t.predicate(created)) {
      throw scimErrors.noTarget(
        `The filter of "${t.label}" matches nothing, and the value given would not match it.`,
      );
    }
    return exclusivePrimary(list, [{ slot: list.push(created), value: created }], t.label);
  }
  // replace with a filter and no sub-attribute replaces the matching values whole; what the
  // filter pins (`type eq "work"`) stays unless the value says otherwise, so the same path
  // still finds the value and a repeated replace changes nothing.
  const pins = t.filter
    ? equalitiesOf(t.filter, t.attr, ctx.index, ctx.rules.stringBooleans)
    : undefined;
  const whole = isJsonObject(change) ? stripUndefined({ ...pins, ...change }) : undefined;
  const touched: Touched[] = [];
  for (const slot of matches) {
    const next = op === 'replace' && !sub ? whole && { ...whole } : merge(list.at(slot), change);
    if (next === undefined || Object.keys(next).length === 0) {
      list.remove(slot);
      continue;
    }
    list.set(slot, next);
    touched.push({ slot, value: next });
  }
  exclusivePrimary(list, touched, t.label);
}

/** The sub-attributes a value filter that matched nothing fixes for the value to create. */
function pinned(ctx: PatchContext, t: Target): Json {
  if (!t.filter) return {};
  const fail = () =>
    scimErrors.noTarget(`The filter of "${t.label}" matches no value of "${t.attr.name}".`);
  if (!ctx.rules.filterMissCreates) throw fail();
  const eqs = equalitiesOf(t.filter, t.attr, ctx.index, ctx.rules.stringBooleans);
  if (!eqs) throw fail();
  return eqs;
}
