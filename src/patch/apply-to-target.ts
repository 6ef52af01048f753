import { isJsonObject, jsonEqual } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { Filter } from '../filter/ast.js';
import type { AttributeDefinition, SchemaDefinition } from '../schema/types.js';
import { exclusivePrimary, sameValue } from './multi-valued.js';
import { coerceMany, coerceOne, stripUndefined } from './coerce-value.js';
import type { Draft } from './draft.js';
import { equalitiesOf, type ElementPredicate } from './match-element.js';
import type { PatchContext } from './patch-context.js';
import type { PatchOpName } from './types.js';

type Json = Record<string, unknown>;

/** One attribute an operation acts on, resolved against the schemas. */
export interface Target {
  readonly schema: SchemaDefinition;
  readonly attr: AttributeDefinition;
  readonly sub?: AttributeDefinition | undefined;
  readonly filter?: Filter | undefined;
  readonly predicate?: ElementPredicate | undefined;
  /** How the client named it, for error messages. */
  readonly label: string;
}

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
  // writeOnly values (password) are never stored by the engine; the host reads them itself.
  if (attr.mutability === 'writeOnly') return;
  if (attr.mutability === 'readOnly' || sub?.mutability === 'readOnly') {
    throw scimErrors.mutability(`"${t.label}" is readOnly and cannot be changed by PATCH.`);
  }
  if (op !== 'remove' && !hasValue)
    throw scimErrors.invalidValue(`"${op}" of "${t.label}" needs a "value".`);
  const container = draft.container(t.schema);
  const current = container[attr.name];
  const next = attr.multiValued
    ? multi(ctx, op, t, current, value, hasValue)
    : singular(ctx, op, t, current, value);
  if (current !== undefined && current !== null && !jsonEqual(current, next)) {
    const immutable =
      attr.mutability === 'immutable' ||
      (sub?.mutability === 'immutable' && isJsonObject(current) && current[sub.name] !== undefined);
    if (immutable)
      throw scimErrors.mutability(`"${t.label}" is immutable and already has a value.`);
  }
  if (next === undefined) delete container[attr.name];
  else container[attr.name] = next;
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
  // A complex attribute's sub-attributes not in the value stay as they are (RFC 7644 §3.5.2.3).
  return merge(current, v);
}

function multi(
  ctx: PatchContext,
  op: PatchOpName,
  t: Target,
  current: unknown,
  value: unknown,
  hasValue: boolean,
): unknown[] | undefined {
  const { attr, sub } = t;
  const list: unknown[] = Array.isArray(current) ? current : current == null ? [] : [current];
  if (!t.filter && !sub) {
    if (op === 'replace') return coerceMany(attr, value, ctx, t.label);
    if (op === 'remove') {
      if (!hasValue || value === null) return undefined;
      if (!ctx.rules.removeWithValue) {
        throw scimErrors.invalidSyntax(
          `"remove" of "${t.label}" takes a filter in the path, not a "value".`,
        );
      }
      const gone = coerceMany(attr, value, ctx, t.label) ?? [];
      return nonEmpty(list.filter((el) => !gone.some((g) => sameValue(ctx, attr, el, g))));
    }
    const out = list.slice();
    const touched: unknown[] = [];
    for (const v of coerceMany(attr, value, ctx, t.label) ?? []) {
      const i = out.findIndex((el) => sameValue(ctx, attr, el, v));
      // The same member again merges into the one there, which keeps its own spelling of `value`.
      const existing = out[i];
      const merged =
        i >= 0 && isJsonObject(v) && isJsonObject(existing)
          ? { ...existing, ...v, ...('value' in existing ? { value: existing.value } : {}) }
          : i >= 0
            ? existing
            : v;
      if (i >= 0) out[i] = merged;
      else out.push(merged);
      touched.push(merged);
    }
    return nonEmpty(exclusivePrimary(out, touched, t.label));
  }
  const match = t.predicate ?? (() => true);
  if (op === 'remove') {
    if (!sub) return nonEmpty(list.filter((el) => !match(el)));
    return nonEmpty(
      list.flatMap((el) => (match(el) ? (merge(el, { [sub.name]: undefined }) ?? []) : [el])),
    );
  }
  const change: unknown = sub
    ? { [sub.name]: coerceOne(sub, value, ctx, t.label) }
    : coerceOne(attr, value, ctx, t.label);
  if (!list.some(match)) {
    const empty = sub ? (change as Json)[sub.name] === undefined : change === undefined;
    if (empty) return nonEmpty(list);
    const created = stripUndefined({ ...pinned(ctx, t), ...(isJsonObject(change) ? change : {}) });
    if (t.predicate && !t.predicate(created)) {
      throw scimErrors.noTarget(
        `The filter of "${t.label}" matches nothing, and the value given would not match it.`,
      );
    }
    return nonEmpty(exclusivePrimary([...list, created], [created], t.label));
  }
  // replace with a filter and no sub-attribute replaces the matching values whole; what the
  // filter pins (`type eq "work"`) stays unless the value says otherwise, so the same path
  // still finds the value and a repeated replace changes nothing.
  const pins = t.filter
    ? equalitiesOf(t.filter, t.attr, ctx.index, ctx.rules.stringBooleans)
    : undefined;
  const whole = isJsonObject(change) ? stripUndefined({ ...pins, ...change }) : undefined;
  const touched: unknown[] = [];
  const out = list.flatMap((el) => {
    if (!match(el)) return [el];
    const next = op === 'replace' && !sub ? whole && { ...whole } : merge(el, change);
    if (next === undefined || Object.keys(next).length === 0) return [];
    touched.push(next);
    return [next];
  });
  return nonEmpty(exclusivePrimary(out, touched, t.label));
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

function nonEmpty(list: unknown[]): unknown[] | undefined {
  return list.length > 0 ? list : undefined;
}
