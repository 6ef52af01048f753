import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { SchemaDefinition } from '../schema/types.js';
import { applyObject } from './apply-value.js';
import { stripUndefined } from '../schema/read-value.js';
import { coerceMany, coerceOne } from './coerce-value.js';
import type { Draft } from './draft.js';
import { filteredSetDelta } from './kept-apart.js';
import { equalitiesOf } from './match-element.js';
import { mergeComplex } from './merge-complex.js';
import { exclusivePrimary } from './multi-valued.js';
import type { PatchOperation } from './patch-operation.js';
import { clearExtension } from './remove.js';
import type { PatchContext, Target, Touched } from './types.js';
import type { ValueList } from './value-list.js';

type Json = Record<string, unknown>;

// What `add` and `replace` do alike (RFC 7644 §3.5.2.1, §3.5.2.3); each file says where they differ.

/**
 * Builds `add` or `replace`: everything but a multi-valued attribute is set alike; `multiValued`
 * is what the operation does there.
 */
export function settingOperation(
  name: 'add' | 'replace',
  multiValued: PatchOperation['multiValued'],
  delta: PatchOperation['delta'],
): PatchOperation {
  const op: PatchOperation = {
    name,
    needsValue: true,
    pathLess: (draft, ctx, value) => setPathLess(op, draft, ctx, value),
    extension: (draft, ctx, schema, value) => setExtension(op, draft, ctx, schema, value),
    singular: setSingular,
    multiValued,
    // A filtered `add` or `replace` changes the matched values in place: it needs them.
    delta: (ctx, t, plan, value, hasValue) =>
      t.filter ? filteredSetDelta(ctx, t, name, value) : delta(ctx, t, plan, value, hasValue),
    writeOnly: setWriteOnly,
  };
  return op;
}

/** Applies a path-less value of `add` or `replace` to the core schema's attributes. */
function setPathLess(op: PatchOperation, draft: Draft, ctx: PatchContext, value: unknown): void {
  if (!isJsonObject(value))
    throw scimErrors.invalidValue(`"${op.name}" without a "path" needs an object "value".`);
  applyObject(draft, ctx, op, ctx.index.core, value);
}

/** Applies `add` or `replace` to a whole extension: its object like a path-less value, `null` clears it. */
function setExtension(
  op: PatchOperation,
  draft: Draft,
  ctx: PatchContext,
  schema: SchemaDefinition,
  value: unknown,
): void {
  if (value === null) {
    if (!ctx.rules.nullClears) throw scimErrors.invalidValue(`"${schema.id}" must not be null.`);
    ctx.trace?.({ rule: 'nullClears', where: '.value', received: null, became: undefined });
    return clearExtension(draft, ctx, schema);
  }
  if (!isJsonObject(value))
    throw scimErrors.invalidValue(`"${schema.id}" must be an object of attributes.`);
  applyObject(draft, ctx, op, schema, value);
}

/**
 * Sets a singular attribute or sub-attribute. A complex attribute's sub-attributes not in the
 * value stay as they are (RFC 7644 §3.5.2.3).
 */
function setSingular(ctx: PatchContext, t: Target, current: unknown, value: unknown) {
  const { attr, sub } = t;
  if (t.filter) {
    // Only `remove` takes a value filter on a singular attribute (`managerValueFilter`).
    throw scimErrors.invalidPath(`"${t.label}" filters a singular attribute: only "remove" can.`);
  }
  if (sub) return mergeComplex(current, { [sub.name]: coerceOne(sub, value, ctx, t.label) });
  const v = coerceOne(attr, value, ctx, t.label);
  if (attr.type !== 'complex' || v === undefined) return v;
  return mergeComplex(current, v);
}

/** Coerces the value a writeOnly attribute receives. */
function setWriteOnly(ctx: PatchContext, t: Target, value: unknown): unknown {
  const def = t.sub ?? t.attr;
  return def.multiValued
    ? coerceMany(def, value, ctx, t.label)
    : coerceOne(def, value, ctx, t.label);
}

/**
 * Sets the values a value filter matches (or, with a sub-attribute, that sub-attribute of each
 * value): merged into each match, or replacing each match whole when `whole` (a `replace`
 * without sub-attribute, where what the filter pins, e.g. `type eq "work"`, stays unless the
 * value says otherwise, so the same path still finds the value and a repeated replace changes
 * nothing). A filter that matches nothing creates the value it pins (dialect rule
 * `filterMissCreates`).
 */
export function setMatching(
  ctx: PatchContext,
  t: Target,
  list: ValueList,
  value: unknown,
  whole: boolean,
): void {
  const { sub } = t;
  const change: unknown = sub
    ? { [sub.name]: coerceOne(sub, value, ctx, t.label) }
    : coerceOne(t.attr, value, ctx, t.label);
  const matches = list.find(t.predicate ?? (() => true), t.lookups);
  if (matches.length === 0) {
    const empty = sub ? (change as Json)[sub.name] === undefined : change === undefined;
    if (empty) return;
    const created = stripUndefined({ ...pinned(ctx, t), ...(isJsonObject(change) ? change : {}) });
    if (t.predicate && !t.predicate(created)) {
      throw scimErrors.noTarget(
        `The filter of "${t.label}" matches nothing, and the value given would not match it.`,
      );
    }
    ctx.trace?.({ rule: 'filterMissCreates', where: '.path', received: t.label, became: created });
    return exclusivePrimary(list, [{ slot: list.push(created), value: created }], t.label);
  }
  const replaced =
    whole && !sub && isJsonObject(change)
      ? stripUndefined({ ...(t.filter ? pins(ctx, t) : undefined), ...change })
      : undefined;
  const touched: Touched[] = [];
  for (const slot of matches) {
    const next = whole && !sub ? replaced && { ...replaced } : mergeComplex(list.at(slot), change);
    if (next === undefined || Object.keys(next).length === 0) {
      list.remove(slot);
      continue;
    }
    list.set(slot, next);
    touched.push({ slot, value: next });
  }
  exclusivePrimary(list, touched, t.label);
}

function pins(ctx: PatchContext, t: Target): Json | undefined {
  return t.filter && equalitiesOf(t.filter, t.attr, ctx.index, ctx.rules.stringBooleans);
}

/** The sub-attributes a value filter that matched nothing fixes for the value to create. */
function pinned(ctx: PatchContext, t: Target): Json {
  if (!t.filter) return {};
  const fail = () =>
    scimErrors.noTarget(`The filter of "${t.label}" matches no value of "${t.attr.name}".`);
  if (!ctx.rules.filterMissCreates) throw fail();
  const eqs = pins(ctx, t);
  if (!eqs) throw fail();
  return eqs;
}
