import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { compileResourceInput } from '../../src/schema/compile-resource-input.js';
import { fastReader, UNSURE } from '../../src/schema/fast-value.js';
import type { AttributeDefinition, AttributeType } from '../../src/schema/types.js';
import { shapeSchema } from '../../src/schema/value-schema.js';
import { compileShape } from '../../src/schema/value-shape.js';
import { loadFixtures } from '../idp/replay-support.js';
import { DISTRICT, ENTERPRISE_USER_SCHEMA, schemas } from './fixtures.js';

// The fast reader of a user body must give exactly what the valibot schema gives (the same
// members in the same order) whenever it gives anything, and leave everything else to it.
const ALL_OFF = {
  stringBooleans: false,
  managerString: false,
  jsonEncodedValues: false,
  managerEmptyString: false,
};

const COMPILED = new Map([undefined, ALL_OFF].map((r) => [r, compileResourceInput(schemas, r)]));

function agree(input: unknown, rules?: typeof ALL_OFF): boolean {
  const { body: fullSchema, fastBody } = COMPILED.get(rules) as ReturnType<
    typeof compileResourceInput
  >;
  const fast = fastBody(input);
  if (fast === UNSURE) return false;
  const full = v.safeParse(fullSchema, input, { abortEarly: true });
  expect(full.success).toBe(true);
  expect(JSON.stringify(fast)).toBe(JSON.stringify(full.output));
  expect(fast).toEqual(full.output);
  return true;
}

// A value of the attribute's type, or now and then one the full schema coerces or refuses.
function valueOf(attr: AttributeDefinition): fc.Arbitrary<unknown> {
  const odd = fc.constantFrom<unknown>(
    null,
    'True',
    'FALSE',
    '',
    7,
    1.5,
    {},
    [],
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

// Some of the attributes, in any order, now and then under another spelling or with a stranger.
function objectOf(attributes: readonly AttributeDefinition[]): fc.Arbitrary<unknown> {
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

const bodies = fc
  .tuple(objectOf(core.attributes), objectOf(enterprise.attributes), objectOf(district.attributes))
  .map(([coreValues, enterpriseValues, districtValues]) => ({
    // The one required attribute, unless the generated members replace it.
    userName: 'ada@example.org',
    ...(coreValues as object),
    [ENTERPRISE_USER_SCHEMA]: enterpriseValues,
    [DISTRICT]: districtValues,
  }));

describe('the fast reader of user bodies', () => {
  it.each([
    ['every dialect rule on', undefined],
    ['the value dialect rules off', ALL_OFF],
  ])('gives exactly what the full schema gives, whenever it gives anything, %s', (_, rules) => {
    let answered = 0;
    fc.assert(
      fc.property(bodies, (body) => {
        if (agree(body, rules)) answered++;
      }),
      { numRuns: 2000 },
    );
    // It is not a reader that leaves everything to the full schema.
    expect(answered).toBeGreaterThan(100);
  });

  it('reads an empty manager id as no manager itself, as the full schema does (managerEmptyString)', () => {
    for (const manager of ['', { value: '' }, { value: '', displayName: ' ' }]) {
      const body = { userName: 'ada@example.org', [ENTERPRISE_USER_SCHEMA]: { manager } };
      expect(agree(body), JSON.stringify(manager)).toBe(true);
      expect(COMPILED.get(undefined)?.fastBody(body)).toEqual({
        userName: 'ada@example.org',
        [ENTERPRISE_USER_SCHEMA]: {},
      });
      // Rule off: the empty id is a value, on both walks.
      expect(agree(body, ALL_OFF) || typeof manager === 'string').toBe(true);
    }
  });

  it('reads the user bodies real identity providers send, as the full schema does', () => {
    const root = fileURLToPath(new URL('../idp/fixtures', import.meta.url));
    const sent = loadFixtures(root).flatMap(({ fixture }) =>
      fixture.steps
        .filter((s) => s.request.method === 'POST' && /\/Users$/.test(s.request.path))
        .map((s) => s.request.body),
    );
    expect(sent.length).toBeGreaterThan(5);
    const answered = sent.filter((body) => agree(body)).length;
    // Entra's "True" strings and other dialects go to the full schema; most bodies do not.
    expect(answered).toBeGreaterThan(sent.length / 2);
  });
});

// Attribute definitions of every type and form a schema can declare: multi-valued or not,
// required or not, readOnly sub-attributes, multi-valued sub-attributes, a `value` sub-attribute
// (the bare-string dialect form) or none.
const SCALAR_TYPES: Exclude<AttributeType, 'complex'>[] = [
  'string',
  'boolean',
  'decimal',
  'integer',
  'dateTime',
  'binary',
  'reference',
];
const scalarDefinition = (names: fc.Arbitrary<string>) =>
  fc.record({
    name: names,
    type: fc.constantFrom(...SCALAR_TYPES),
    multiValued: fc.boolean(),
    required: fc.boolean(),
    mutability: fc.constantFrom('readWrite' as const, 'readOnly' as const, 'immutable' as const),
  });
const definitions: fc.Arbitrary<AttributeDefinition> = fc
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
  .map(full);

interface Generated {
  readonly name: string;
  readonly type: AttributeType;
  readonly multiValued: boolean;
  readonly required: boolean;
  readonly mutability?: AttributeDefinition['mutability'];
  readonly subAttributes?: readonly Generated[];
}
function full({ subAttributes, ...rest }: Generated): AttributeDefinition {
  return {
    description: '',
    caseExact: false,
    returned: 'default',
    uniqueness: 'none',
    mutability: 'readWrite',
    ...rest,
    ...(subAttributes ? { subAttributes: subAttributes.map(full) } : {}),
  };
}

describe('the fast reader of one attribute, for generated definitions of every type', () => {
  it.each([
    [
      'every dialect rule on',
      {
        stringBooleans: true,
        managerString: true,
        jsonEncodedValues: true,
        managerEmptyString: true,
      },
    ],
    ['the value dialect rules off', ALL_OFF],
  ])('gives what the valibot schema generated from the same shape gives, %s', (_, rules) => {
    let answered = 0;
    let refusedByBoth = 0;
    fc.assert(
      fc.property(
        definitions.chain((d) => fc.tuple(fc.constant(d), valueOf(d))),
        ([definition, value]) => {
          const shape = compileShape(definition, rules);
          const fast = fastReader(shape)(value);
          const full = v.safeParse(shapeSchema(shape), value, { abortEarly: true });
          if (fast === UNSURE) {
            if (!full.success) refusedByBoth++;
            return;
          }
          answered++;
          expect(full.success, JSON.stringify({ definition, value })).toBe(true);
          expect(JSON.stringify(fast)).toBe(JSON.stringify(full.output));
          expect(fast).toEqual(full.output);
        },
      ),
      { numRuns: 3000 },
    );
    // Both sides are exercised: values the fast reader reads, values both refuse.
    expect(answered).toBeGreaterThan(1000);
    expect(refusedByBoth).toBeGreaterThan(100);
  });
});

describe('the fast reader of an object of many members', () => {
  // Values are read in the input's order and put in the members' order after (fast-value.ts).
  it.each([3, 12, 40])(
    'gives what the full schema gives for %i members, named in any order',
    (count) => {
      const names = Array.from({ length: count }, (_, i) => `m${i}`);
      const definition = full({
        name: 'it',
        type: 'complex',
        multiValued: false,
        required: false,
        subAttributes: names.map((name, i) => ({
          name,
          type: i % 3 === 0 ? 'integer' : 'string',
          multiValued: false,
          required: i === count - 1 || i === 1,
        })),
      });
      const shape = compileShape(definition, ALL_OFF);
      const values = fc
        .shuffledSubarray(names)
        .chain((chosen) =>
          fc.tuple(
            // Mostly the member's own type, so that objects the fast reader answers (every
            // required member present, every type right) come up among many members too.
            ...chosen.map((name) =>
              fc.tuple(
                fc.constant(name),
                fc.oneof(
                  {
                    arbitrary:
                      Number(name.slice(1)) % 3 === 0
                        ? fc.integer()
                        : fc.string({ minLength: 1, maxLength: 3 }),
                    weight: 30,
                  },
                  { arbitrary: fc.string({ minLength: 1, maxLength: 3 }), weight: 1 },
                  { arbitrary: fc.integer(), weight: 1 },
                  { arbitrary: fc.constant(null), weight: 1 },
                ),
              ),
            ),
          ),
        )
        .map((pairs) => Object.fromEntries(pairs));
      let answered = 0;
      fc.assert(
        fc.property(values, (value) => {
          const fast = fastReader(shape)(value);
          if (fast === UNSURE) return;
          answered++;
          const fullRead = v.safeParse(shapeSchema(shape), value, { abortEarly: true });
          expect(fullRead.success).toBe(true);
          expect(JSON.stringify(fast)).toBe(JSON.stringify(fullRead.output));
        }),
        { numRuns: 500 },
      );
      expect(answered).toBeGreaterThan(0);
    },
  );
});
