import fc from 'fast-check';
import { isClientText } from '../../src/json/client-text.js';
import type {
  AttributePath,
  CompareOperator,
  Filter,
  FilterValue,
} from '../../src/filter/index.js';

// Generators of filter text and filter ASTs, shared by the filter property tests.

export const OPERATORS: CompareOperator[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'lt', 'ge', 'le'];
/** Limits loose enough for any generated filter. */
export const LOOSE = { maxLength: 1_000_000, maxDepth: 1_000 };

/** Every UTF-16 code unit, lone surrogates and control characters included. */
export const anyString = fc.string({
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
/** Random text made of grammar fragments and arbitrary strings. */
export const soup = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

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
export const { filter } = fc.letrec<{ filter: Filter; inner: Filter }>((tie) => ({
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
