import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { AttributeDefinition } from '../schema/types.js';
import { REFUSED } from '../schema/value-rules.js';
import {
  compileShape,
  hasTwoPrimaries,
  isUnassigned,
  listOf,
  memberAt,
  namedTwice,
  NOT_AN_OBJECT,
  NULL_ITEM,
  TWO_PRIMARIES,
  type ListShape,
  type ObjectShape,
  type ValueShape,
} from '../schema/value-shape.js';
import type { PatchContext } from './patch-context.js';

type Json = Record<string, unknown>;

// PATCH reads a value through the same compiled rules (`compileShape`) a POST or PUT body is
// read with: the scalar readers, the dialect forms of complex values, the members a client may
// write and their names, lists and their one primary value. What is PATCH's own: a cleared
// sub-attribute is kept (as `undefined`) for the merge, and `null` is refused unless the dialect
// rule `nullClears` is on.

/**
 * Checks a value against the type of a singular attribute (or one value of a multi-valued one)
 * and returns it in canonical form: sub-attribute names canonical, unknown and readOnly
 * sub-attributes dropped, dialect coercions applied. A cleared sub-attribute (explicit `null`)
 * comes back as an own key holding `undefined`, so a merge can delete it. Returns `undefined`
 * for "no value".
 *
 * @throws ScimError 400 `invalidValue` for a value of the wrong type.
 * @see RFC 7643 §2.3, §2.5
 */
export function coerceOne(
  def: AttributeDefinition,
  value: unknown,
  ctx: PatchContext,
  label: string,
): unknown {
  const shape = shapeOf(def, ctx);
  return readValue(shape.kind === 'list' ? shape.item : shape, value, ctx, label);
}

/**
 * Checks the value of a multi-valued attribute: an array (a single value is taken as a list of
 * one) whose values are checked one by one; at most one may be `primary`. Returns `undefined`
 * for an empty list or `null` (RFC 7643 §2.4: equivalent to unassigned).
 *
 * @throws ScimError 400 `invalidValue` for a wrong type or two primary values.
 */
export function coerceMany(
  def: AttributeDefinition,
  value: unknown,
  ctx: PatchContext,
  label: string,
): unknown[] | undefined {
  const shape = shapeOf(def, ctx);
  const list: ListShape =
    shape.kind === 'list' ? shape : { kind: 'list', item: shape, onePrimary: false };
  return readValue(list, value, ctx, label) as unknown[] | undefined;
}

/** Removes own keys that hold `undefined` (cleared sub-attributes). */
export function stripUndefined(o: Json): Json {
  let clean = true;
  for (const k in o) if (o[k] === undefined) clean = false;
  if (clean) return o;
  const out: Json = {};
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

// Every definition a PATCH targets is one of the context's schemas; another is compiled here.
function shapeOf(def: AttributeDefinition, ctx: PatchContext): ValueShape {
  return ctx.shapes.get(def) ?? compileShape(def, ctx.rules);
}

function readValue(shape: ValueShape, value: unknown, ctx: PatchContext, label: string): unknown {
  if (value === null) return nullValue(ctx, label);
  switch (shape.kind) {
    case 'any':
      return value;
    case 'scalar': {
      const out = shape.read(value);
      if (out === REFUSED) throw scimErrors.invalidValue(`${label} ${shape.expected(value)}.`);
      // A scalar read as no value is an id reference's empty id (`manager.value: ""`).
      if (out === undefined) emptyId(ctx, value);
      return out;
    }
    case 'list':
      return readList(shape, value, ctx, label);
    case 'object':
      return readObject(shape, value, ctx, label);
  }
}

function readList(shape: ListShape, value: unknown, ctx: PatchContext, label: string) {
  const out: unknown[] = [];
  for (const item of listOf(value)) {
    // Whatever `nullClears` says of a whole value: a list holds no null (as a POST body).
    if (isUnassigned(item)) throw scimErrors.invalidValue(`${label}[] ${NULL_ITEM}.`);
    const one = readValue(shape.item, item, ctx, `${label}[]`);
    if (shape.item.kind === 'object') checkRequired(shape.item, one, `${label}[]`);
    if (one === undefined) continue;
    const clean = isJsonObject(one) ? stripUndefined(one) : one;
    if (!isJsonObject(clean) || Object.keys(clean).length > 0) out.push(clean);
  }
  if (shape.onePrimary && hasTwoPrimaries(out))
    throw scimErrors.invalidValue(`${label} ${TWO_PRIMARIES}.`);
  return out.length > 0 ? out : undefined;
}

function readObject(shape: ObjectShape, value: unknown, ctx: PatchContext, label: string) {
  const v = shape.readForm ? shape.readForm(value) : value;
  // A dialect form that is no value (an empty id, `managerEmptyString`) unassigns, as null would.
  if (v === undefined) return emptyId(ctx, value);
  if (!isJsonObject(v)) throw scimErrors.invalidValue(`${label} ${NOT_AN_OBJECT}.`);
  const out: Json = {};
  let any = false;
  for (const key of Object.keys(v)) {
    const at = memberAt(shape, key);
    // Members the shape does not list (unknown or readOnly) are ignored, never rejected.
    if (at < 0) continue;
    const member = shape.members[at] as (typeof shape.members)[number];
    // Ambiguous, as in a POST body: `value` and `VALUE` in one object.
    if (Object.hasOwn(out, member.name))
      throw scimErrors.invalidValue(`${label} ${namedTwice(member.name)}.`);
    const read = readValue(member.shape, v[key], ctx, `${label}.${member.name}`);
    out[member.name] = read;
    if (read !== undefined) any = true;
  }
  return any || Object.keys(out).length > 0 ? out : undefined;
}

// A new value of a multi-valued attribute is whole: it holds every required member (a
// group member's `value`), as a POST body's would, or the PATCH is refused.
function checkRequired(shape: ObjectShape, value: unknown, label: string): void {
  for (const at of shape.required) {
    const { name } = shape.members[at] as (typeof shape.members)[number];
    if (!isJsonObject(value) || value[name] === undefined)
      throw scimErrors.invalidValue(`"${label}.${name}" is required.`);
  }
}

function nullValue(ctx: PatchContext, label: string): undefined {
  if (!ctx.rules.nullClears) throw scimErrors.invalidValue(`${label} must not be null.`);
  ctx.trace?.({ rule: 'nullClears', where: '.value', received: null, became: undefined });
  return undefined;
}

// Dialect rule `managerEmptyString`: the only way a value the reader accepts comes back as none.
function emptyId(ctx: PatchContext, received: unknown): undefined {
  ctx.trace?.({ rule: 'managerEmptyString', where: '.value', received, became: undefined });
  return undefined;
}
