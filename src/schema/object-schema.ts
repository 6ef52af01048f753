import { isJsonObject } from '../json/json-value.js';
import * as v from 'valibot';

/** A compiled valibot schema for one attribute value; `undefined` out means "no value". */
export type ValueSchema = v.GenericSchema<unknown, unknown>;

/** One key an object schema accepts: its canonical name and the schema of its value. */
export interface ObjectEntry {
  readonly name: string;
  readonly schema: ValueSchema;
  /** RFC 7643 §7 `required`: the object must hold a value for it. */
  readonly required?: boolean;
}

type Json = Record<string, unknown>;

// `fastObject` in `fast-value.ts` mirrors this for plain, valid input: change both together.
/**
 * Builds the valibot schema of a JSON object of attributes: keys match their entry regardless
 * of letter case and come out canonical; keys no entry names (unknown or readOnly attributes)
 * and `null` values are dropped, never rejected; required entries must hold a value. With
 * `emptyIsNoValue`, an object left with no values becomes `undefined`.
 *
 * @see RFC 7643 §2.1 (case-insensitive names), §2.5 (null is unassigned), §7 (readOnly)
 */
export function objectSchema(
  entries: readonly ObjectEntry[],
  emptyIsNoValue: boolean,
): ValueSchema {
  const byLowerName = new Map(entries.map((e) => [e.name.toLowerCase(), e.name]));
  const exact = new Set(entries.map((e) => e.name));
  const shape: Record<string, v.OptionalSchema<ValueSchema, undefined>> = {};
  for (const e of entries) shape[e.name] = v.optional(e.schema);
  const required = entries.filter((e) => e.required).map((e) => e.name);

  // The input with canonical names, or the name given twice (`value` and `VALUE`), which is
  // ambiguous: PATCH refuses it too (`coerceOne`).
  const canonicalize = (input: Json): Json | string => {
    const out: Json = {};
    // Names given as null: a null beside another spelling of its name is ambiguous too.
    let cleared: Set<string> | undefined;
    for (const key in input) {
      // Most clients spell names as the schema does: lower-case only the others.
      const name = exact.has(key) ? key : byLowerName.get(key.toLowerCase());
      if (name === undefined) continue;
      if (Object.hasOwn(out, name) || cleared?.has(name)) return name;
      const value = input[key];
      if (value === null || value === undefined) (cleared ??= new Set()).add(name);
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
    if (kept === 0 && emptyIsNoValue) return undefined;
    if (dropped === 0) return values;
    const out: Json = {};
    for (const key in values) if (values[key] !== undefined) out[key] = values[key];
    return out;
  };

  return v.pipe(
    v.custom<Json>(isJsonObject, 'must be an object'),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const out = canonicalize(dataset.value);
      if (typeof out !== 'string') return out;
      addIssue({ message: `names "${out}" twice, in different letter cases` });
      return NEVER;
    }),
    v.object(shape),
    v.transform(compact),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || dataset.value === undefined) return;
      const values = dataset.value;
      for (const name of required) {
        if (values[name] !== undefined) continue;
        addIssue({
          message: 'is required',
          path: [{ type: 'object', origin: 'value', input: values, key: name, value: undefined }],
        });
      }
    }),
  ) as ValueSchema;
}
