import { scimErrors } from '../errors/index.js';
import { readValue, ValueRefusal } from '../schema/read-value.js';
import type { AttributeDefinition } from '../schema/types.js';
import { compileShape, REQUIRED, type ListShape, type ValueShape } from '../schema/value-shape.js';
import type { PatchContext } from './patch-context.js';

// PATCH reads a value with the walk a POST or PUT body is read with (`readValue`), over the same
// compiled rules. What is PATCH's own are the walk's parameters: the value is merged into what is
// stored, so a cleared sub-attribute is kept (as `undefined`) for the merge and `null` is refused
// unless the dialect rule `nullClears` is on; and errors name the value by the operation's path.

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
  return readPatchValue(shape.kind === 'list' ? shape.item : shape, value, ctx, label);
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
  return readPatchValue(list, value, ctx, label) as unknown[] | undefined;
}

// Every definition a PATCH targets is one of the context's schemas; another is compiled here.
function shapeOf(def: AttributeDefinition, ctx: PatchContext): ValueShape {
  return ctx.shapes.get(def) ?? compileShape(def, ctx.rules);
}

function readPatchValue(shape: ValueShape, value: unknown, ctx: PatchContext, label: string) {
  try {
    return readValue(shape, value, {
      merge: true,
      nullClears: ctx.rules.nullClears,
      trace: ctx.trace,
    });
  } catch (error) {
    throw error instanceof ValueRefusal ? refusalToError(error, label) : error;
  }
}

// Named by the operation's path, then where in its value: `emails[].value must be a string.`
function refusalToError(refusal: ValueRefusal, label: string) {
  let where = label;
  for (const key of refusal.path) where += typeof key === 'number' ? '[]' : `.${key}`;
  if (refusal.message === REQUIRED) return scimErrors.invalidValue(`"${where}" is required.`);
  return scimErrors.invalidValue(`${where} ${refusal.message}.`);
}
