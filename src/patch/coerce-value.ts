import { isJsonObject } from '../json/json-value.js';
import { scimErrors } from '../errors/index.js';
import type { AttributeDefinition } from '../schema/types.js';
import { expectedScalar, readComplexForm, REFUSED, scalarReader } from '../schema/value-rules.js';
import type { PatchContext } from './patch-context.js';

type Json = Record<string, unknown>;

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
  if (value === null) return nullValue(ctx, label);
  if (def.type !== 'complex') return coerceSimple(def, value, ctx, label);
  const v = readComplexForm(def, value, ctx.rules);
  if (!isJsonObject(v))
    throw scimErrors.invalidValue(`${label} must be an object of sub-attributes.`);
  const out: Json = {};
  let any = false;
  for (const key of Object.keys(v)) {
    const sub = ctx.index.subAttribute(def, key);
    // Sub-attributes we do not model are ignored, never rejected; readOnly ones are the
    // server's to set (RFC 7643 §7), so a client's copy is ignored too.
    if (!sub || sub.mutability === 'readOnly') continue;
    // Ambiguous, as in a POST body (`objectSchema`): `value` and `VALUE` in one object.
    if (Object.hasOwn(out, sub.name))
      throw scimErrors.invalidValue(
        `${label} names "${sub.name}" twice, in different letter cases.`,
      );
    const coerced = coerceOne(sub, (v as Json)[key], ctx, `${label}.${sub.name}`);
    out[sub.name] = coerced;
    if (coerced !== undefined) any = true;
  }
  return any || Object.keys(out).length > 0 ? out : undefined;
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
  if (value === null) return nullValue(ctx, label) as undefined;
  const list = Array.isArray(value) ? value : [value];
  const out: unknown[] = [];
  let primaries = 0;
  for (const item of list) {
    const one = coerceOne(def, item, ctx, `${label}[]`);
    if (one === undefined) continue;
    const clean = isJsonObject(one) ? stripUndefined(one) : one;
    if (isJsonObject(clean) && clean.primary === true) primaries++;
    if (!isJsonObject(clean) || Object.keys(clean).length > 0) out.push(clean);
  }
  if (primaries > 1) throw scimErrors.invalidValue(`${label} may have at most one primary value.`);
  return out.length > 0 ? out : undefined;
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

function nullValue(ctx: PatchContext, label: string): undefined {
  if (!ctx.rules.nullClears) throw scimErrors.invalidValue(`${label} must not be null.`);
  return undefined;
}

function coerceSimple(
  def: AttributeDefinition,
  value: unknown,
  ctx: PatchContext,
  label: string,
): unknown {
  if (def.multiValued && Array.isArray(value)) {
    throw scimErrors.invalidValue(`${label} takes one value per element, not a nested list.`);
  }
  // Complex values never reach here: `coerceOne` reads them.
  const type = def.type as Exclude<typeof def.type, 'complex'>;
  const out = scalarReader(type, ctx.rules)(value);
  if (out === REFUSED) throw scimErrors.invalidValue(`${label} ${expectedScalar(type, value)}.`);
  return out;
}
