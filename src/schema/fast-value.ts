import { isJsonObject } from '../json/json-value.js';
import type { AttributeDefinition } from './types.js';
import { readComplexForm, REFUSED, scalarReader, type ValueRules } from './value-rules.js';

/**
 * What a fast reader answers for any input that is not the plain, valid case it handles: the
 * caller then validates with the full schema (valibot), which decides and words every error.
 *
 * @internal
 */
export const UNSURE: typeof REFUSED = REFUSED;

/**
 * Reads a value the way the compiled valibot schema of the same definition does, for input that
 * names its attributes as the schema spells them (values of the right JSON
 * type, or one of the coercions the schema makes), and answers {@link UNSURE} for anything
 * else: a name spelled another way, a value of the wrong type, a missing required value.
 * Its output, when it gives one, is exactly valibot's, members in the same order; a property
 * test (`test/schema/fast-value.property.test.ts`) holds the two to that. It exists for speed:
 * validating a typical user this way costs a fraction of running the valibot pipeline. The value
 * rules themselves (scalar types, dialect forms of complex values) come from `value-rules.ts`,
 * shared with valibot and PATCH; only the list and object shapes of `value-schema.ts` and
 * `object-schema.ts` are mirrored here, and a change to them must be made here too.
 *
 * @internal
 */
export type FastReader = (value: unknown) => unknown;

/** One member of an object for {@link fastObject}. @internal */
export interface FastEntry {
  readonly name: string;
  readonly read: FastReader;
  readonly required?: boolean | undefined;
}

/** Any value as it is (the body's `id`, checked against the path later). @internal */
export const readAny: FastReader = (x) => x;

/**
 * The fast reader of an attribute, mirroring `compileValue` in `value-schema.ts`, coercions
 * included: a list is any value or array of values, nulls in it are left out, and an empty one
 * is no value; a complex value is read in its dialect forms first (`readComplexForm`).
 *
 * @internal
 */
export function compileFastValue(definition: AttributeDefinition, rules: ValueRules): FastReader {
  const scalar = fastScalar(definition, rules);
  const complex = definition.type === 'complex';
  const one = complex ? (x: unknown) => scalar(readComplexForm(definition, x, rules)) : scalar;
  if (!definition.multiValued) return one;
  return (x) => {
    const list = Array.isArray(x) ? x : [x];
    const out: unknown[] = [];
    let primaries = 0;
    for (const raw of list) {
      if (raw === null || raw === undefined) continue;
      const item = one(raw);
      if (item === UNSURE) return UNSURE;
      if (item === undefined) continue;
      if (complex && (item as Record<string, unknown>).primary === true) primaries++;
      out.push(item);
    }
    // More than one primary value is an error: the full schema words it.
    if (primaries > 1) return UNSURE;
    return out.length === 0 ? undefined : out;
  };
}

function fastScalar(definition: AttributeDefinition, rules: ValueRules): FastReader {
  switch (definition.type) {
    case 'complex':
      return fastObject(
        (definition.subAttributes ?? [])
          .filter((sub) => sub.mutability !== 'readOnly')
          .map((sub) => ({
            name: sub.name,
            read: compileFastValue(sub, rules),
            required: sub.required,
          })),
        true,
      );
    default:
      // A refused value is one the fast reader leaves to the full schema (UNSURE is REFUSED).
      return scalarReader(definition.type, rules);
  }
}

/**
 * The fast reader of an object, mirroring `objectSchema` in `object-schema.ts`: null members and
 * unknown names are left out, members come out in the order of `entries`, an object with no
 * members is no value when `emptyIsNoValue`.
 *
 * @internal
 */
export function fastObject(entries: readonly FastEntry[], emptyIsNoValue: boolean): FastReader {
  const indexOf = new Map(entries.map((e, i) => [e.name, i]));
  const lowerNames = new Set(entries.map((e) => e.name.toLowerCase()));
  const required = entries.flatMap((e, i) => (e.required ? [i] : []));
  return (input) => {
    if (!isJsonObject(input)) return UNSURE;
    // The members found, as entry indexes in ascending order, and their values.
    const found: number[] = [];
    const values: unknown[] = [];
    for (const key in input) {
      const at = indexOf.get(key);
      if (at === undefined) {
        // A known name spelled another way is the full schema's to resolve (even as null: it
        // may be named twice); others are unknown.
        if (lowerNames.has(key.toLowerCase())) return UNSURE;
        continue;
      }
      const raw = input[key];
      if (raw === null || raw === undefined) continue;
      const value = (entries[at] as FastEntry).read(raw);
      if (value === UNSURE) return UNSURE;
      if (value === undefined) continue;
      let j = found.length;
      for (; j > 0 && (found[j - 1] as number) > at; j--) {
        found[j] = found[j - 1] as number;
        values[j] = values[j - 1];
      }
      found[j] = at;
      values[j] = value;
    }
    if (found.length === 0 && emptyIsNoValue) return undefined;
    for (const at of required) if (!found.includes(at)) return UNSURE;
    const out: Record<string, unknown> = {};
    for (let j = 0; j < found.length; j++) {
      out[(entries[found[j] as number] as FastEntry).name] = values[j];
    }
    return out;
  };
}
