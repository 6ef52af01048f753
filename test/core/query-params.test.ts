import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodesToClientText, queryParams } from '../../src/core/http/query-params.js';
import { isClientText } from '../../src/json/client-text.js';

// The characters that matter to decoding and to client text, and a few ordinary ones.
const PIECES = [
  '%',
  '0',
  '00',
  'a',
  'F',
  'e',
  'D',
  '8',
  '=',
  '&',
  '+',
  '?',
  '\0',
  '\uD800',
  '\uDC00',
  '😀',
  'é',
  '%ED%A0%80',
  '%C0%80',
  '%F0%90',
];
// ASCII only, which the shortcut answers unless it holds U+0000: percent-encoded bytes of
// every kind (surrogates, overlong, cut sequences, invalid bytes).
const ASCII = [
  '%',
  '0',
  '00',
  '%00',
  'a',
  '=',
  '&',
  '+',
  '%ED%A0%80',
  '%ED%B0%80',
  '%C0%80',
  '%F0%90',
  '%FF',
  '%E2%82',
  '%c3%a9',
  '\x01',
  '\x7f',
  ' ',
];
const asciiQueries = fc.array(fc.constantFrom(...ASCII), { maxLength: 12 }).map((p) => p.join(''));
const queries = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((p) => p.join(''));

// The plain rule: walk every decoded name and value.
const plainlyClient = (query: string): boolean =>
  [...new URLSearchParams(query.startsWith('?') ? query.slice(1) : query)].every(
    ([key, value]) => isClientText(key) && isClientText(value),
  );

describe('queryParams', () => {
  it('accepts and refuses a string query as walking its decoded parameters does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          queries,
          asciiQueries,
          fc.string({ maxLength: 16 }),
          fc.string({ unit: 'binary', maxLength: 16 }),
        ),
        (query) => {
          // The shortcut never accepts what the walk refuses...
          if (decodesToClientText(query)) expect(plainlyClient(query)).toBe(true);
          // ...and the whole reader answers exactly as the walk does.
          let accepted = true;
          try {
            queryParams(query);
          } catch {
            accepted = false;
          }
          expect(accepted).toBe(plainlyClient(query));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('refuses U+0000 in a filter as invalidFilter, elsewhere as invalidValue', () => {
    expect(() => queryParams('filter=a%00')).toThrow(
      expect.objectContaining({ scimType: 'invalidFilter' }),
    );
    expect(() => queryParams('count=\0')).toThrow(
      expect.objectContaining({ scimType: 'invalidValue' }),
    );
    expect(queryParams('?filter=userName%20eq%20%22%ED%A0%80%22').get('filter')).toBe(
      'userName eq "\uFFFD\uFFFD\uFFFD"',
    );
  });
});
