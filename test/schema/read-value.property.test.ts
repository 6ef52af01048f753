import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileResourceInput } from '../../src/schema/compile-resource-input.js';
import { readValue, ValueRefusal, type ValueReading } from '../../src/schema/read-value.js';
import type { AttributeDefinition } from '../../src/schema/types.js';
import { compileShape } from '../../src/schema/value-shape.js';
import type { ValueRules } from '../../src/schema/value-rules.js';
import { loadFixtures } from '../idp/replay-support.js';
import { schemas } from './fixtures.js';
import { ALL_OFF, ALL_ON, definitionsAndValues, userBodies } from './value-arbitraries.js';

// One walk reads a value for a POST or PUT body and for a PATCH; what differs is a parameter
// of it. These properties hold the two readings to each other, and the walk to its own output.

const BODY: ValueReading = { merge: false, nullClears: false };
const MERGE: ValueReading = { merge: true, nullClears: true };

type Read = { value: unknown } | { refused: Pick<ValueRefusal, 'path' | 'message'> };

function read(
  definition: AttributeDefinition,
  rules: ValueRules,
  value: unknown,
  how: ValueReading,
): Read {
  try {
    return { value: readValue(compileShape(definition, rules), value, how) };
  } catch (error) {
    if (!(error instanceof ValueRefusal)) throw error;
    return { refused: { path: error.path, message: error.message } };
  }
}

// What a merged value says once merged into nothing: cleared members gone, nothing left is no value.
function merged(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(merged);
  if (typeof value !== 'object' || value === null) return value;
  const out = Object.fromEntries(
    Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, merged(v)]])),
  );
  return Object.keys(out).length === 0 ? undefined : out;
}

// A singular complex value a PATCH merges may leave out a required member the stored value has.
function mergeMayLackRequired(definition: AttributeDefinition): boolean {
  return (
    definition.type === 'complex' &&
    !definition.multiValued &&
    (definition.subAttributes ?? []).some((s) => s.required && s.mutability !== 'readOnly')
  );
}

describe('the value walk, read for a body and for a PATCH', () => {
  it.each([
    ['every dialect rule on', ALL_ON],
    ['the value dialect rules off', ALL_OFF],
  ])('gives the same value whenever both readings accept one, %s', (_, rules) => {
    let both = 0;
    fc.assert(
      fc.property(definitionsAndValues, ([definition, value]) => {
        const body = read(definition, rules, value, BODY);
        const patch = read(definition, rules, value, MERGE);
        if (!('value' in body) || !('value' in patch)) return;
        both++;
        expect(JSON.stringify(merged(patch.value))).toBe(JSON.stringify(body.value));
      }),
      { numRuns: 3000 },
    );
    expect(both).toBeGreaterThan(1000);
  });

  it.each([
    ['every dialect rule on', ALL_ON],
    ['the value dialect rules off', ALL_OFF],
  ])(
    'accepts and refuses the same values, at the same place for the same reason, %s',
    (_, rules) => {
      let refused = 0;
      fc.assert(
        fc.property(definitionsAndValues, ([definition, value]) => {
          const body = read(definition, rules, value, BODY);
          const patch = read(definition, rules, value, MERGE);
          if (mergeMayLackRequired(definition)) {
            // What a body may hold, a PATCH may merge.
            if ('value' in body) expect('value' in patch).toBe(true);
            return;
          }
          if ('refused' in body) refused++;
          expect('refused' in patch ? patch.refused : 'accepted').toEqual(
            'refused' in body ? body.refused : 'accepted',
          );
        }),
        { numRuns: 3000 },
      );
      expect(refused).toBeGreaterThan(100);
    },
  );

  it('refuses, without the dialect rule nullClears, exactly the PATCH values in which it clears a null', () => {
    let cleared = 0;
    fc.assert(
      fc.property(definitionsAndValues, ([definition, value]) => {
        const heard: string[] = [];
        const lenient = read(definition, ALL_ON, value, {
          ...MERGE,
          trace: ({ rule }) => heard.push(rule),
        });
        const strict = read(definition, ALL_ON, value, { ...MERGE, nullClears: false });
        if ('refused' in lenient || heard.includes('nullClears')) {
          if ('value' in lenient) cleared++;
          expect('refused' in strict).toBe(true);
        } else expect(strict).toStrictEqual(lenient);
      }),
      { numRuns: 4000 },
    );
    // Nulls are rare among the generated values; some are read and cleared.
    expect(cleared).toBeGreaterThan(5);
  });
});

describe('the value walk, read for a body', () => {
  it.each([
    ['every dialect rule on', undefined],
    ['the value dialect rules off', ALL_OFF],
  ])('reads what it gave again to the same value (one canonical form), %s', (_, rules) => {
    const { shape } = compileResourceInput(schemas, rules);
    let accepted = 0;
    fc.assert(
      fc.property(userBodies, (body) => {
        let once: unknown;
        try {
          once = readValue(shape, body, BODY);
        } catch (error) {
          if (error instanceof ValueRefusal) return;
          throw error;
        }
        accepted++;
        expect(JSON.stringify(readValue(shape, once, BODY))).toBe(JSON.stringify(once));
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('reads every user body the identity providers of the replays send', () => {
    const root = fileURLToPath(new URL('../idp/fixtures', import.meta.url));
    const sent = loadFixtures(root).flatMap(({ fixture }) =>
      fixture.steps
        .filter(
          (s) => /^(POST|PUT)$/.test(s.request.method) && /\/Users(\/|$)/.test(s.request.path),
        )
        .map((s) => s.request.body),
    );
    expect(sent.length).toBeGreaterThan(5);
    const { shape } = compileResourceInput(schemas);
    for (const body of sent) {
      const once = readValue(shape, body, BODY);
      expect(JSON.stringify(readValue(shape, once, BODY))).toBe(JSON.stringify(once));
    }
  });
});
