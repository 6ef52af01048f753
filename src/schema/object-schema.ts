import { isJsonObject } from '../json/json-value.js';
import * as v from 'valibot';
import {
  isUnassigned,
  memberAt,
  namedTwice,
  NOT_AN_OBJECT,
  type ObjectShape,
} from './value-shape.js';

/** A compiled valibot schema for one attribute value; `undefined` out means "no value". */
export type ValueSchema = v.GenericSchema<unknown, unknown>;

type Json = Record<string, unknown>;

/**
 * Generates the valibot schema of an object of attributes from its shape (`objectShape`), given
 * the schema of each member in the shape's order: keys match their member regardless of letter
 * case and come out canonical; keys the shape does not list (unknown or readOnly attributes) and
 * `null` values are dropped, never rejected; a name given twice is refused; required members
 * must hold a value; with the shape's `emptyIsNoValue`, an object left with no values becomes
 * `undefined`.
 *
 * @see RFC 7643 §2.1 (case-insensitive names), §2.5 (null is unassigned), §7 (readOnly)
 * @internal
 */
export function objectSchema(shape: ObjectShape, schemas: readonly ValueSchema[]): ValueSchema {
  const { members } = shape;
  const entries: Record<string, v.OptionalSchema<ValueSchema, undefined>> = {};
  members.forEach((m, i) => (entries[m.name] = v.optional(schemas[i] as ValueSchema)));

  // The input with canonical names, or the name given twice (`value` and `VALUE`), which is
  // ambiguous: PATCH refuses it too (`coerceOne`).
  const canonicalize = (input: Json): Json | string => {
    const out: Json = {};
    // Names given as null: a null beside another spelling of its name is ambiguous too.
    let cleared: Set<string> | undefined;
    for (const key in input) {
      const at = memberAt(shape, key);
      if (at < 0) continue;
      const { name } = members[at] as (typeof members)[number];
      if (Object.hasOwn(out, name) || cleared?.has(name)) return name;
      const value = input[key];
      if (isUnassigned(value)) (cleared ??= new Set()).add(name);
      else out[name] = value;
    }
    return out;
  };
  // `values` is the new object the object schema built: it is copied only to leave members out.
  const compact = (values: Json): Json | undefined => {
    let kept = 0;
    let dropped = 0;
    for (const key in values) {
      if (values[key] === undefined) dropped++;
      else kept++;
    }
    if (kept === 0 && shape.emptyIsNoValue) return undefined;
    if (dropped === 0) return values;
    const out: Json = {};
    for (const key in values) if (values[key] !== undefined) out[key] = values[key];
    return out;
  };

  return v.pipe(
    v.custom<Json>(isJsonObject, NOT_AN_OBJECT),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const out = canonicalize(dataset.value);
      if (typeof out !== 'string') return out;
      addIssue({ message: namedTwice(out) });
      return NEVER;
    }),
    v.object(entries),
    v.transform(compact),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || dataset.value === undefined) return;
      const values = dataset.value;
      for (const at of shape.required) {
        const key = (members[at] as (typeof members)[number]).name;
        if (values[key] !== undefined) continue;
        addIssue({
          message: 'is required',
          path: [{ type: 'object', origin: 'value', input: values, key, value: undefined }],
        });
      }
    }),
  ) as ValueSchema;
}
