import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterReader } from '../../src/core/handlers/filter-reader.js';
import { checkFilter, parseFilter } from '../../src/filter/index.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';

const schemas = userResourceType();
const general = (text: string) => checkFilter(parseFilter(text), schemas);
const read = filterReader(schemas);

describe('filterReader', () => {
  it('reads userName eq "..." exactly as parseFilter + checkFilter, whatever the literal', () => {
    const spelling = fc.constantFrom('userName eq', 'USERNAME EQ', 'username Eq');
    fc.assert(
      fc.property(spelling, fc.string({ unit: 'grapheme' }), (prefix, value) => {
        const text = `${prefix} ${JSON.stringify(value)}`;
        expect(read(text)).toEqual(general(text));
      }),
      { numRuns: 500 },
    );
  });

  it('reads every other filter through the general path', () => {
    for (const text of [
      'userName  eq "a@example.org"',
      'userName eq "a\\"b@example.org"',
      'userName sw "a"',
      'urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a@example.org"',
      'userName eq "a@example.org" and active eq true',
      'emails[type eq "work"]',
      'userName eq "tab\tand\u0001control"',
    ]) {
      expect(read(text)).toEqual(general(text));
    }
  });

  it('refuses what the general path refuses', () => {
    for (const text of [
      'userName eq',
      'userName eq "unterminated',
      'nosuch eq "x"',
      `userName eq "${'a'.repeat(5000)}"`,
    ]) {
      expect(() => general(text)).toThrow();
      expect(() => read(text)).toThrow(expect.objectContaining({ scimType: 'invalidFilter' }));
    }
  });

  it('hands out filters whose shared parts cannot be changed', () => {
    const filter = read('userName eq "a@example.org"');
    if (filter.kind !== 'compare') throw new Error(`expected a comparison, got ${filter.kind}`);
    expect(Object.isFrozen(filter.path)).toBe(true);
  });
});
