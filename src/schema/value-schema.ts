import * as v from 'valibot';
import { objectSchema, type ValueSchema } from './object-schema.js';
import type { AttributeDefinition } from './types.js';
import {
  expectedScalar,
  readComplexForm,
  REFUSED,
  scalarReader,
  type ValueRules,
} from './value-rules.js';

type Json = Record<string, unknown>;

const toList = (x: unknown): unknown[] => (Array.isArray(x) ? x : [x]);
const present = (items: unknown[]): unknown[] | undefined => {
  const out = items.filter((item) => item !== undefined && item !== null);
  return out.length === 0 ? undefined : out;
};

function scalarSchema(definition: AttributeDefinition, rules: ValueRules): ValueSchema {
  switch (definition.type) {
    case 'complex':
      return objectSchema(
        (definition.subAttributes ?? [])
          .filter((sub) => sub.mutability !== 'readOnly')
          .map((sub) => ({
            name: sub.name,
            schema: compileValue(sub, rules),
            required: sub.required,
          })),
        true,
      );
    default: {
      const { type } = definition;
      const read = scalarReader(type, rules);
      return v.pipe(
        v.unknown(),
        v.rawTransform(({ dataset, addIssue, NEVER }) => {
          const out = read(dataset.value);
          if (out !== REFUSED) return out;
          addIssue({ message: expectedScalar(type, dataset.value) });
          return NEVER;
        }),
      ) as ValueSchema;
    }
  }
}

// `fast-value.ts` mirrors the list shape below for plain, valid input: change both together.
/**
 * Compiles one attribute definition into the valibot schema of its value, as a POST or PUT
 * body carries it: the value checked against the type and coerced ("True" → `true`); a
 * multi-valued attribute takes a list (one bare value is a list of one), drops `null`
 * elements, becomes "no value" when empty, and allows at most one `primary` value. The output
 * `undefined` means "no value". The dialect switches in `rules` are the same a PATCH reads
 * values with, so POST, PUT and PATCH accept and coerce the same values.
 *
 * @see RFC 7643 §2.3 (types), §2.4 (multi-valued), §2.5 (unassigned)
 */
export function compileValue(definition: AttributeDefinition, rules: ValueRules): ValueSchema {
  const scalar = scalarSchema(definition, rules);
  const one =
    definition.type === 'complex'
      ? (v.pipe(
          v.unknown(),
          v.transform((x) => readComplexForm(definition, x, rules)),
          scalar,
        ) as ValueSchema)
      : scalar;
  if (!definition.multiValued) return one;
  return v.pipe(
    v.unknown(),
    v.transform(toList),
    v.array(v.nullish(one)),
    v.transform(present),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || definition.type !== 'complex') return;
      const primaries = (dataset.value ?? []).filter((e) => (e as Json).primary === true).length;
      if (primaries > 1) addIssue({ message: 'may have at most one primary value' });
    }),
  ) as ValueSchema;
}
