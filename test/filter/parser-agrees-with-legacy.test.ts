import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { parseFilter, stringifyAttributePath } from '../../src/filter/index.js';
import type { Filter, FilterValue, ParseFilterOptions } from '../../src/filter/index.js';
import { LOOSE, filter, soup } from './filter-arbitraries.js';
import { legacyParseFilter } from './oracle/legacy-parse-filter.js';

// The recursive-descent parser must read every filter as the module-level parser in
// test/filter/oracle/ reads it: that one is the oracle these properties compare with.

type Outcome = { readonly ast: Filter } | { readonly refused: true };

/** What a parser makes of `text`: an AST, or a refusal, which must be a 400 invalidFilter. */
function outcome(parse: typeof parseFilter, text: string, options?: ParseFilterOptions): Outcome {
  try {
    return { ast: parse(text, options) };
  } catch (error) {
    if (!(isScimError(error) && error.status === 400 && error.scimType === 'invalidFilter'))
      throw error;
    return { refused: true };
  }
}

// The properties below run tens of thousands of cases, and one `expect` costs more than both
// parsers together: values that are equal to the letter pass without it, and `expect` judges
// (and reports) only the rest, as it judged every case before.
function expectEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}

function expectAgreement(text: string, options?: ParseFilterOptions): void {
  expectEqual(
    outcome(parseFilter, text, options),
    outcome(legacyParseFilter, text, options),
    JSON.stringify(text),
  );
}

/** Writes `ast` as filter text in a random spelling: letter case, whitespace, extra parentheses, escapes. */
function spell(ast: Filter, g: fc.GeneratorValue): string {
  const space = () => g(fc.constantFrom, ' ', '  ', '\t', '\n', ' \r\n ');
  const optionalSpace = () => g(fc.constantFrom, '', ' ', '\t');
  const word = (w: string) =>
    g(fc.constantFrom, w, w.toUpperCase(), w[0]?.toUpperCase() + w.slice(1));
  const grouped = (inner: string, needed: boolean) =>
    needed || g(fc.boolean) ? `(${optionalSpace()}${inner}${optionalSpace()})` : inner;
  const text = (f: Filter): string => {
    switch (f.kind) {
      case 'present':
        return `${stringifyAttributePath(f.path)}${space()}${word('pr')}`;
      case 'compare':
        return `${stringifyAttributePath(f.path)}${space()}${word(f.op)}${space()}${value(f.value)}`;
      case 'not':
        return `${word('not')}${optionalSpace()}(${text(f.filter)})`;
      case 'valuePath':
        return `${stringifyAttributePath(f.path)}[${optionalSpace()}${text(f.filter)}${optionalSpace()}]`;
      case 'and':
        return `${grouped(text(f.left), f.left.kind === 'or')}${space()}${word('and')}${space()}${grouped(
          text(f.right),
          f.right.kind === 'or' || f.right.kind === 'and',
        )}`;
      case 'or':
        return `${grouped(text(f.left), false)}${space()}${word('or')}${space()}${grouped(
          text(f.right),
          f.right.kind === 'or',
        )}`;
    }
  };
  const value = (v: FilterValue): string => {
    if (typeof v === 'string') {
      if (!g(fc.boolean)) return JSON.stringify(v);
      // Every character as a \u escape: JSON.parse must read it back.
      const escaped = [...Array(v.length).keys()].map(
        (i) => `\\u${v.charCodeAt(i).toString(16).padStart(4, '0')}`,
      );
      return `"${escaped.join('')}"`;
    }
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : JSON.stringify(v);
    return word(String(v));
  };
  return `${optionalSpace()}${text(ast)}${optionalSpace()}`;
}

describe('the parser reads every spelling of a filter', () => {
  it('parses random ASTs, written with any case, spacing, grouping and escapes, back to themselves', () => {
    fc.assert(
      fc.property(filter, fc.gen(), (ast, g) => {
        const text = spell(ast, g);
        expectEqual(parseFilter(text, LOOSE), ast);
        expectEqual(legacyParseFilter(text, LOOSE), ast);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the parser agrees with the one it replaced', () => {
  it('on random text: the same AST, or both refuse with invalidFilter (RFC 7644 values)', () => {
    fc.assert(
      fc.property(soup, (text) => expectAgreement(text)),
      { numRuns: 20_000 },
    );
  });

  // Two corners of the dialect differ on purpose, each pinned below; random text that reaches
  // them is left out here: an operator glued to what follows it, and true / false / null glued
  // to a character that cannot continue a name.
  const GLUED_OPERATOR = /(?:eq|ne|co|sw|ew|gt|lt|ge|le)[^\s\w$()[\]"-]/i;
  const GLUED_LITERAL = /(?:true|false|null)[^\s\w$)\]-]/i;

  it('on random text with unquotedValues, away from the two corners that differ on purpose', () => {
    fc.assert(
      fc.property(
        soup.filter((text) => !GLUED_OPERATOR.test(text) && !GLUED_LITERAL.test(text)),
        (text) => expectAgreement(text, { unquotedValues: true }),
      ),
      { numRuns: 10_000 },
    );
  });

  it('on what identity providers and the RFC send, in both modes', () => {
    const corpus = [
      'userName eq "bjensen"',
      'userName eq "NOOR.HADDAD@EXAMPLE.COM"',
      'displayName eq "Lincoln High Teachers"',
      'externalId eq "3b1f6a2e-0000-4c4c-9a9a-1234567890ab"',
      'externalId eq jyoung',
      'externalId eq jyoung)',
      'displayName eq ',
      'userName sw O',
      'meta.created gt 2015-10-10T14:38:21',
      'meta.Created gt 2015-10-10T14:38:21.8617979-07:00',
      'name.FamilyName eq Employee and (emails.Value co example.com or emails.Value co example.org)',
      'emails[type eq "work"].value eq "ada@example.org"',
      'emails[type eq work]',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "26118915"',
      'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
      'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
      'members[value eq "2819c223-7f76-453a-919d-413861904646"]',
      'title pr and userType eq "Employee"',
      'meta.lastModified gt "2011-05-13T04:42:34Z"',
      'a eq "q\\"uo\\\\te \\u00e9\\n\\/"',
      'x eq -12.5e2',
      'title eq 007',
      'title eq trueish',
      'active eq FALSE',
    ];
    for (const text of corpus) {
      expectAgreement(text);
      expectAgreement(text, { unquotedValues: true });
    }
  });
});

describe('where it differs on purpose, with unquotedValues only', () => {
  it('needs whitespace after an operator, as RFC 7644 does (the old parser read "eq.x" as eq ".x")', () => {
    expect(outcome(parseFilter, 'userName eq.x', { unquotedValues: true })).toEqual({
      refused: true,
    });
    expect(legacyParseFilter('userName eq.x', { unquotedValues: true })).toMatchObject({
      value: '.x',
    });
  });

  it('reads a bare word that starts with a literal as a word (the old parser refused true"x")', () => {
    expect(parseFilter('title eq true"x"', { unquotedValues: true })).toMatchObject({
      value: 'true"x"',
    });
    expect(outcome(legacyParseFilter, 'title eq true"x"', { unquotedValues: true })).toEqual({
      refused: true,
    });
  });
});
