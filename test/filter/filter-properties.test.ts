import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { parseFilter, stringifyFilter } from '../../src/filter/index.js';
import { LOOSE, anyString, filter, soup } from './filter-arbitraries.js';

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
