import fc from 'fast-check';
import type { AttributeDefinition, AttributeType } from '../../src/schema/types.js';
import type { ValueRules } from '../../src/schema/value-rules.js';
import { DISTRICT, ENTERPRISE_USER_SCHEMA, schemas } from './fixtures.js';

// Generated attribute definitions and values for the property tests of the value walk.

/** Every value dialect rule off. */
export const ALL_OFF: ValueRules = {
  stringBooleans: false,
  managerString: false,
  jsonEncodedValues: false,
  managerEmptyString: false,
};

/** Every value dialect rule on. */
export const ALL_ON: ValueRules = {
  stringBooleans: true,
  managerString: true,
  jsonEncodedValues: true,
  managerEmptyString: true,
};

/** A value of the attribute's type, or now and then one a rule coerces or refuses. */
export function valueOf(attr: AttributeDefinition): fc.Arbitrary<unknown> {
  const odd = fc.constantFrom<unknown>(
    null,
    'True',
    'FALSE',
    '',
    ' ',
    7,
    1.5,
    {},
    [],
    [null],
    'x@y.org',
    '{"value":"x","displayName":"X"}',
    '2026-01-31T12:00:00+0200',
  );
  let one: fc.Arbitrary<unknown>;
  switch (attr.type) {
    case 'string':
    case 'reference':
    case 'binary':
      one = fc.string({ maxLength: 8 });
      break;
    case 'dateTime':
      one = fc.constantFrom('2026-01-31T12:00:00Z', '2026-01-31T12:00:00.5+02:00', '2026-13-01');
      break;
    case 'boolean':
      one = fc.boolean();
      break;
    case 'integer':
      one = fc.integer();
      break;
    case 'decimal':
      one = fc.double({ noNaN: true });
      break;
    case 'complex':
      one = objectOf(attr.subAttributes ?? []);
      break;
  }
  const item = fc.oneof({ weight: 9, arbitrary: one }, { weight: 1, arbitrary: odd });
  if (!attr.multiValued) return item;
  return fc.oneof(
    { weight: 9, arbitrary: fc.array(item, { maxLength: 3 }) },
    { weight: 1, arbitrary: item },
  );
}

/** Some of the attributes, in any order, now and then under another spelling or with a stranger. */
export function objectOf(attributes: readonly AttributeDefinition[]): fc.Arbitrary<unknown> {
  if (attributes.length === 0) return fc.constant({});
  const member = fc
    .constantFrom(...attributes)
    .chain((attr) =>
      fc.tuple(
        fc.oneof(
          { weight: 9, arbitrary: fc.constant(attr.name) },
          { weight: 1, arbitrary: fc.constant(attr.name.toUpperCase()) },
          { weight: 1, arbitrary: fc.constantFrom('unknownThing', '__proto__') },
        ),
        valueOf(attr),
      ),
    );
  return fc
    .array(member, { maxLength: 6 })
    .map((pairs) => JSON.parse(JSON.stringify(Object.fromEntries(pairs))) as unknown);
}

const [core, enterprise, district] = schemas as [
  (typeof schemas)[0],
  (typeof schemas)[0],
  (typeof schemas)[0],
];

/** User bodies (the test fixtures' schemas, the Enterprise and a host extension). */
export const userBodies = fc
  .tuple(objectOf(core.attributes), objectOf(enterprise.attributes), objectOf(district.attributes))
  .map(([coreValues, enterpriseValues, districtValues]) => ({
    // The one required attribute, unless the generated members replace it.
    userName: 'ada@example.org',
    ...(coreValues as object),
    [ENTERPRISE_USER_SCHEMA]: enterpriseValues,
    [DISTRICT]: districtValues,
  }));

const SCALAR_TYPES: Exclude<AttributeType, 'complex'>[] = [
  'string',
  'boolean',
  'decimal',
  'integer',
  'dateTime',
  'binary',
  'reference',
];

interface Generated {
  readonly name: string;
  readonly type: AttributeType;
  readonly multiValued: boolean;
  readonly required: boolean;
  readonly mutability?: AttributeDefinition['mutability'];
  readonly subAttributes?: readonly Generated[];
}

/** A whole attribute definition from the parts a test varies. */
export function definition({ subAttributes, ...rest }: Generated): AttributeDefinition {
  return {
    description: '',
    caseExact: false,
    returned: 'default',
    uniqueness: 'none',
    mutability: 'readWrite',
    ...rest,
    ...(subAttributes ? { subAttributes: subAttributes.map(definition) } : {}),
  };
}

const scalarDefinition = (names: fc.Arbitrary<string>) =>
  fc.record({
    name: names,
    type: fc.constantFrom(...SCALAR_TYPES),
    multiValued: fc.boolean(),
    required: fc.boolean(),
    mutability: fc.constantFrom('readWrite' as const, 'readOnly' as const, 'immutable' as const),
  });

/**
 * Attribute definitions of every type and form a schema can declare: multi-valued or not,
 * required or not, readOnly sub-attributes, multi-valued sub-attributes, a `value`
 * sub-attribute (the bare-string dialect form) or none.
 */
export const definitions: fc.Arbitrary<AttributeDefinition> = fc
  .oneof(
    scalarDefinition(fc.constant('it')),
    fc
      .record({
        multiValued: fc.boolean(),
        subAttributes: fc.uniqueArray(
          scalarDefinition(fc.constantFrom('value', 'primary', 'type', 'display', 'n')),
          { selector: (d) => d.name, minLength: 1, maxLength: 4 },
        ),
      })
      .map((d) => ({ name: 'it', type: 'complex' as const, required: false, ...d })),
  )
  .map(definition);

/** A definition and a value for it. */
export const definitionsAndValues = definitions.chain((d) => fc.tuple(fc.constant(d), valueOf(d)));
