import * as v from 'valibot';
import { isDateTime } from './date-time.js';
import { objectSchema, type ValueSchema } from './object-schema.js';
import type { AttributeDefinition } from './types.js';

type Json = Record<string, unknown>;

// IdPs (Entra ID first) send booleans as "True"/"False"; DESIGN.md §5 accepts them.
const fromBooleanString = (x: unknown): unknown => {
  if (typeof x !== 'string') return x;
  const lower = x.toLowerCase();
  return lower === 'true' ? true : lower === 'false' ? false : x;
};

// A bare string where a complex value with a `value` sub-attribute is expected is that value
// (RFC 7643 §2.4 for multi-valued attributes; Entra ID's `manager` for singular ones).
const fromBareString = (x: unknown): unknown => (typeof x === 'string' ? { value: x } : x);
const toList = (x: unknown): unknown[] => (Array.isArray(x) ? x : [x]);
const present = (items: unknown[]): unknown[] | undefined => {
  const out = items.filter((item) => item !== undefined && item !== null);
  return out.length === 0 ? undefined : out;
};

function scalarSchema(definition: AttributeDefinition): ValueSchema {
  switch (definition.type) {
    case 'string':
    case 'reference':
    case 'binary':
      return v.string('must be a string');
    case 'dateTime': {
      const expected = 'must be an xsd:dateTime such as 2026-01-31T12:00:00Z';
      return v.pipe(v.string(expected), v.check(isDateTime, expected));
    }
    case 'boolean':
      return v.pipe(
        v.unknown(),
        v.transform(fromBooleanString),
        v.boolean('must be a boolean'),
      ) as ValueSchema;
    case 'integer':
      return v.pipe(v.number('must be an integer'), v.integer('must be an integer'));
    case 'decimal':
      return v.pipe(v.number('must be a number'), v.finite('must be a finite number'));
    case 'complex':
      return objectSchema(
        (definition.subAttributes ?? [])
          .filter((sub) => sub.mutability !== 'readOnly')
          .map((sub) => ({ name: sub.name, schema: compileValue(sub), required: sub.required })),
        true,
      );
  }
}

// `fast-value.ts` mirrors these rules for plain, valid input: change both together.
/**
 * Compiles one attribute definition into the valibot schema of its value, as a POST or PUT
 * body carries it: the value checked against the type and coerced ("True" → `true`); a
 * multi-valued attribute takes a list (one bare value is a list of one), drops `null`
 * elements, becomes "no value" when empty, and allows at most one `primary` value. The output
 * `undefined` means "no value".
 *
 * @see RFC 7643 §2.3 (types), §2.4 (multi-valued), §2.5 (unassigned)
 */
export function compileValue(definition: AttributeDefinition): ValueSchema {
  const one = scalarSchema(definition);
  if (!definition.multiValued) {
    // Entra ID sends the enterprise `manager` as a bare id: a singular complex attribute with a
    // `value` sub-attribute takes a string as that value.
    const takesBareValue =
      definition.type === 'complex' && definition.subAttributes?.some((s) => s.name === 'value');
    return takesBareValue
      ? (v.pipe(v.unknown(), v.transform(fromBareString), one) as ValueSchema)
      : one;
  }
  const element: ValueSchema =
    definition.type === 'complex'
      ? (v.pipe(v.unknown(), v.transform(fromBareString), one) as ValueSchema)
      : one;
  return v.pipe(
    v.unknown(),
    v.transform(toList),
    v.array(v.nullish(element)),
    v.transform(present),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || definition.type !== 'complex') return;
      const primaries = (dataset.value ?? []).filter((e) => (e as Json).primary === true).length;
      if (primaries > 1) addIssue({ message: 'may have at most one primary value' });
    }),
  ) as ValueSchema;
}
