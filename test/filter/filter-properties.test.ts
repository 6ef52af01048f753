import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { parseFilter, stringifyFilter } from '../../src/filter/index.js';
import { isClientText } from '../../src/json/client-text.js';
import type {
  AttributePath,
  CompareOperator,
  Filter,
  FilterValue,
} from '../../src/filter/index.js';

const OPERATORS: CompareOperator[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'];
const LOOSE = { maxLength: 1_000_000, maxDepth: 1_000 };

/** Every UTF-16 code unit, lone surrogates and control characters included. */
const anyString = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
});

/** Fragments that steer random text towards the corners of the grammar. */
const fragment = fc.oneof(
  fc.constantFrom(
    '(',
    ')',
    '[',
    ']',
    ' ',
    ' and ',
    ' or ',
    'not ',
    'not(',
    ' pr',
    ' eq ',
    ' CO ',
    ' gt ',
    '"',
    '"x"',
    '"\\u00',
    '\\',
    'emails',
    '.',
    'value',
    ':',
    'urn:ietf:params:scim:schemas:core:2.0:User:',
    '1',
    '-',
    '0.5e',
    'e+3',
    'true',
    'NULL',
    'False',
    '].value eq ',
    '$ref',
    '\t',
    '\n',
  ),
  anyString,
);
const soup = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

describe('parseFilter never throws anything but a SCIM invalidFilter', () => {
  it('on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(anyString, soup), (text) => {
        try {
          const ast = parseFilter(text);
          // Whatever parses also survives the trip back to text.
          expect(parseFilter(stringifyFilter(ast), LOOSE)).toEqual(ast);
        } catch (error) {
          expect(isScimError(error)).toBe(true);
          expect(error).toMatchObject({ status: 400, scimType: 'invalidFilter' });
        }
      }),
      { numRuns: 3000 },
    );
  });
});

const name = fc.stringMatching(/^[A-Za-z$][A-Za-z0-9_$-]{0,7}$/);
const schemaUrn = fc.oneof(
  fc.constantFrom(
    'urn:ietf:params:scim:schemas:core:2.0:User',
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
  ),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9.:+%=@/-]{0,15}$/),
);

const attributePath: fc.Arbitrary<AttributePath> = fc
  .record({
    schema: fc.option(schemaUrn, { nil: undefined }),
    attribute: name,
    subAttribute: fc.option(name, { nil: undefined }),
  })
  .map(({ schema, attribute, subAttribute }) => ({
    ...(schema === undefined ? {} : { schema }),
    attribute,
    ...(subAttribute === undefined ? {} : { subAttribute }),
  }));

const value: fc.Arbitrary<FilterValue> = fc.oneof(
  // A literal holding U+0000 or a lone surrogate is refused by design (docs/errors.md).
  anyString.filter(isClientText),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

const leaf: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({
    kind: fc.constant('compare' as const),
    path: attributePath,
    op: fc.constantFrom(...OPERATORS),
    value,
  }),
  fc.record({ kind: fc.constant('present' as const), path: attributePath }),
);

/** Filters of bounded depth; `inner` has no value paths, as the grammar demands in brackets. */
const { filter } = fc.letrec<{ filter: Filter; inner: Filter }>((tie) => ({
  filter: fc.oneof(
    { maxDepth: 6, depthSize: 'small' },
    leaf,
    fc.record({
      kind: fc.constantFrom('and' as const, 'or' as const),
      left: tie('filter'),
      right: tie('filter'),
    }),
    fc.record({ kind: fc.constant('not' as const), filter: tie('filter') }),
    fc.record({
      kind: fc.constant('valuePath' as const),
      path: attributePath,
      filter: tie('inner'),
    }),
  ),
  inner: fc.oneof(
    { maxDepth: 4, depthSize: 'small' },
    leaf,
    fc.record({
      kind: fc.constantFrom('and' as const, 'or' as const),
      left: tie('inner'),
      right: tie('inner'),
    }),
    fc.record({ kind: fc.constant('not' as const), filter: tie('inner') }),
  ),
}));

describe('stringifyFilter', () => {
  it('writes random ASTs that parse back unchanged', () => {
    fc.assert(
      fc.property(filter, (ast) => {
        expect(parseFilter(stringifyFilter(ast), LOOSE)).toEqual(ast);
      }),
      { numRuns: 3000 },
    );
  });
});
