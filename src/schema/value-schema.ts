import * as v from 'valibot';
import { objectSchema, type ValueSchema } from './object-schema.js';
import { REFUSED } from './value-rules.js';
import {
  hasTwoPrimaries,
  isUnassigned,
  listOf,
  NULL_ITEM,
  TWO_PRIMARIES,
  type ListShape,
  type ScalarShape,
  type ValueShape,
} from './value-shape.js';

const present = (items: unknown[]): unknown[] | undefined => {
  const out = items.filter((item) => item !== undefined);
  return out.length === 0 ? undefined : out;
};

function scalarSchema(shape: ScalarShape): ValueSchema {
  const { read, expected } = shape;
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const out = read(dataset.value);
      if (out !== REFUSED) return out;
      addIssue({ message: expected(dataset.value) });
      return NEVER;
    }),
  ) as ValueSchema;
}

function listSchema(shape: ListShape): ValueSchema {
  return v.pipe(
    v.unknown(),
    v.transform(listOf),
    v.rawCheck(({ dataset, addIssue }) => {
      const items = dataset.value as unknown[];
      const key = items.findIndex(isUnassigned);
      if (key < 0) return;
      addIssue({
        message: NULL_ITEM,
        path: [{ type: 'array', origin: 'value', input: items, key, value: items[key] }],
      });
    }),
    v.array(shapeSchema(shape.item)),
    v.transform(present),
    v.rawCheck(({ dataset, addIssue }) => {
      if (dataset.typed && shape.onePrimary && hasTwoPrimaries(dataset.value ?? []))
        addIssue({ message: TWO_PRIMARIES });
    }),
  ) as ValueSchema;
}

/**
 * Generates the valibot schema of a value from its compiled rules (`compileShape`): the value
 * checked against its type and coerced ("True" → `true`); a complex value read in its dialect
 * forms (one may be "no value"), then as an object of sub-attributes; a multi-valued attribute
 * takes a list (one bare value is a list of one), refuses a `null` element (`NULL_ITEM`),
 * becomes "no value" when empty, and allows at most one `primary` value. The output `undefined` means "no value".
 * The fast reader (`fastReader`) is generated from the same shape.
 *
 * @see RFC 7643 §2.3 (types), §2.4 (multi-valued), §2.5 (unassigned)
 * @internal
 */
export function shapeSchema(shape: ValueShape): ValueSchema {
  switch (shape.kind) {
    case 'any':
      return v.unknown();
    case 'scalar':
      return scalarSchema(shape);
    case 'list':
      return listSchema(shape);
    case 'object': {
      const object = objectSchema(
        shape,
        shape.members.map((m) => shapeSchema(m.shape)),
      );
      const { readForm } = shape;
      if (!readForm) return object;
      // A form may read as no value (an empty id): `undefined` goes through.
      return v.pipe(v.unknown(), v.transform(readForm), v.optional(object)) as ValueSchema;
    }
  }
}
