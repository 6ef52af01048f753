import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import type { AttributeDefinition } from '../../src/schema/types.js';
import { compileResourceInput } from '../../src/schema/compile-resource-input.js';
import { validateResourceInput } from '../../src/schema/validate-resource-input.js';
import { body, DISTRICT, ENTERPRISE_USER_SCHEMA, schemas } from './fixtures.js';

// Known names (in random case) so the values reach the attribute schemas, plus strangers.
const names = (attributes: readonly AttributeDefinition[]) =>
  fc.oneof(
    fc.constantFrom(
      ...attributes.flatMap((a) => [a.name, ...(a.subAttributes ?? []).map((s) => s.name)]),
    ),
    fc.string({ maxLength: 6 }),
  );
const casing = (name: fc.Arbitrary<string>) =>
  fc.tuple(name, fc.boolean()).map(([n, upper]) => (upper ? n.toUpperCase() : n));
const value = (attributes: readonly AttributeDefinition[]) =>
  fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      fc.jsonValue({ maxDepth: 1 }),
      fc.constantFrom('True', 'false', '2026-01-31T12:00:00Z', 'a@x.org', null),
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(casing(names(attributes)), tie('v'), { maxKeys: 4 }),
    ),
  })).v;
const attributesOf = (attributes: readonly AttributeDefinition[]) =>
  fc.dictionary(casing(names(attributes)), value(attributes), { maxKeys: 6 });

const [core, enterprise, district] = schemas;
const compiled = compileResourceInput(schemas);

describe('validateResourceInput on arbitrary bodies', () => {
  it('answers with coerced input or a 400 ScimError, never anything else', () => {
    if (!core || !enterprise || !district) throw new Error('fixtures missing');
    fc.assert(
      fc.property(
        attributesOf(core.attributes),
        attributesOf(enterprise.attributes),
        attributesOf(district.attributes),
        (coreValues, enterpriseValues, districtValues) => {
          const input = body({
            ...coreValues,
            [ENTERPRISE_USER_SCHEMA]: enterpriseValues,
            [DISTRICT]: districtValues,
          });
          try {
            const result = validateResourceInput(input, compiled);
            // What comes out validates again to itself: coercion is idempotent.
            const again = validateResourceInput({ ...body(), ...result.attributes }, compiled);
            expect(again.attributes).toEqual(result.attributes);
          } catch (error) {
            expect(isScimError(error) && error.status === 400).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
