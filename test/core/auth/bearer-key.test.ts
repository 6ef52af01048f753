import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerKey } from '../../../src/core/auth/authenticate.js';

// The plain reading the fast path stands in for.
const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

describe('bearerKey', () => {
  it('reads every header as the Bearer regular expression does (property)', () => {
    const unit = fc.constantFrom('a', 'Z', '~', '!', ' ', '\t', '\n', 'é', '\u00a0', '\u3000', '-');
    const rest = fc.array(unit, { maxLength: 12 }).map((u) => u.join(''));
    const prefix = fc.constantFrom(
      'Bearer ',
      'bearer ',
      'BEARER\t',
      'Bearer  ',
      'Bearer',
      'Basic ',
      '',
    );
    fc.assert(
      fc.property(prefix, rest, (p, r) => {
        expect(bearerKey(p + r)).toBe(BEARER.exec(p + r)?.[1]);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the usual spelling, and leaves out what is no key', () => {
    expect(bearerKey('Bearer abc-123')).toBe('abc-123');
    expect(bearerKey('Bearer ')).toBeUndefined();
    expect(bearerKey('Bearer abc def')).toBeUndefined();
    expect(bearerKey('Bearer abc ')).toBe('abc');
  });
});
