import { describe, expect, it } from 'vitest';
import { queryParams } from '../../src/core/http/query-params.js';

describe('queryParams', () => {
  it('reads a string query, with or without its "?", an object and URLSearchParams alike', () => {
    const expected = [
      ['filter', 'userName eq "ada"'],
      ['count', '2'],
    ];
    expect([...queryParams('?filter=userName%20eq%20%22ada%22&count=2')]).toEqual(expected);
    expect([...queryParams('filter=userName+eq+%22ada%22&count=2')]).toEqual(expected);
    expect([...queryParams({ filter: 'userName eq "ada"', count: ['2'] })]).toEqual(expected);
    expect([...queryParams(new URLSearchParams(expected))]).toEqual(expected);
  });

  it('refuses U+0000 in a filter as invalidFilter, elsewhere as invalidValue', () => {
    expect(() => queryParams('filter=a%00')).toThrow(
      expect.objectContaining({ scimType: 'invalidFilter' }),
    );
    expect(() => queryParams('count=\0')).toThrow(
      expect.objectContaining({ scimType: 'invalidValue' }),
    );
    // Ill-formed UTF-8, an encoded surrogate among it, decodes to U+FFFD: client text.
    expect(queryParams('?filter=userName%20eq%20%22%ED%A0%80%22').get('filter')).toBe(
      'userName eq "\uFFFD\uFFFD\uFFFD"',
    );
  });
});
