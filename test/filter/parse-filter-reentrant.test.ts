import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../src/filter/index.js';
import type { Filter, ParseFilterOptions } from '../../src/filter/index.js';
import { and, cmp, pr, vp } from './ast-builders.js';

// Each parse owns its state, none at module level: a parse started while another is under way, here from
// the options object the outer parse reads, changes nothing in the outer one.

const OUTER = 'emails[type eq "work" and value co "@example.org"] and title pr';
const OUTER_AST = and(
  vp('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'co', '@example.org'))),
  pr('title'),
);

/** Options whose every read runs `onRead` first, as a host's getter or proxy could. */
function optionsThat(onRead: () => void, unquotedValues = false): ParseFilterOptions {
  const base: ParseFilterOptions = { maxDepth: 32, maxLength: 4096, unquotedValues };
  return new Proxy(base, {
    get(target, key, receiver) {
      onRead();
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

describe('parseFilter is re-entrant', () => {
  it('parses correctly while another parse runs inside it', () => {
    const inner: Filter[] = [];
    const options = optionsThat(() => inner.push(parseFilter('userName eq "ada"')));
    expect(parseFilter(OUTER, options)).toEqual(OUTER_AST);
    expect(inner.length).toBeGreaterThan(0);
    for (const filter of inner) expect(filter).toEqual(cmp('userName', 'eq', 'ada'));
  });

  it('keeps each parse to its own options when they nest', () => {
    // The inner parse reads bare values; the outer one must still refuse them.
    const options = optionsThat(() => {
      expect(parseFilter('userName sw O', { unquotedValues: true })).toEqual(
        cmp('userName', 'sw', 'O'),
      );
    });
    expect(() => parseFilter('userName sw O', options)).toThrow(/expected a value/);
  });

  it('is unharmed by a nested parse that fails, or by one nested inside that', () => {
    let depth = 0;
    const options = optionsThat(() => {
      if (depth > 2) return;
      depth++;
      expect(() => parseFilter('(userName eq "x"', options)).toThrow(/expected "\)"/);
      expect(parseFilter(OUTER, options)).toEqual(OUTER_AST);
      depth--;
    });
    expect(parseFilter(OUTER, options)).toEqual(OUTER_AST);
  });
});
