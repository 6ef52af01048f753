import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { parseFilter } from '../../src/filter/index.js';
import type { Filter } from '../../src/filter/index.js';
import { and, cmp, not, or, pr, vp } from './ast-builders.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const LAST_MODIFIED = '2011-05-13T04:42:34Z';

/** Runs `fn` and returns the ScimError it throws. */
function errorOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (isScimError(error)) return error;
    throw error;
  }
  throw new Error('expected a ScimError');
}

describe('parseFilter: every example filter of RFC 7644 §3.4.2.2', () => {
  const examples: [string, Filter][] = [
    ['userName eq "bjensen"', cmp('userName', 'eq', 'bjensen')],
    [`name.familyName co "O'Malley"`, cmp('name.familyName', 'co', "O'Malley")],
    ['userName sw "J"', cmp('userName', 'sw', 'J')],
    [
      'urn:ietf:params:scim:schemas:core:2.0:User:userName sw "J"',
      cmp('urn:ietf:params:scim:schemas:core:2.0:User:userName', 'sw', 'J'),
    ],
    ['title pr', pr('title')],
    [`meta.lastModified gt "${LAST_MODIFIED}"`, cmp('meta.lastModified', 'gt', LAST_MODIFIED)],
    [`meta.lastModified ge "${LAST_MODIFIED}"`, cmp('meta.lastModified', 'ge', LAST_MODIFIED)],
    [`meta.lastModified lt "${LAST_MODIFIED}"`, cmp('meta.lastModified', 'lt', LAST_MODIFIED)],
    [`meta.lastModified le "${LAST_MODIFIED}"`, cmp('meta.lastModified', 'le', LAST_MODIFIED)],
    ['title pr and userType eq "Employee"', and(pr('title'), cmp('userType', 'eq', 'Employee'))],
    ['title pr or userType eq "Intern"', or(pr('title'), cmp('userType', 'eq', 'Intern'))],
    [`schemas eq "${ENTERPRISE}"`, cmp('schemas', 'eq', ENTERPRISE)],
    [
      'userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")',
      and(
        cmp('userType', 'eq', 'Employee'),
        or(cmp('emails', 'co', 'example.com'), cmp('emails.value', 'co', 'example.org')),
      ),
    ],
    [
      'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
      and(
        cmp('userType', 'ne', 'Employee'),
        not(or(cmp('emails', 'co', 'example.com'), cmp('emails.value', 'co', 'example.org'))),
      ),
    ],
    [
      'userType eq "Employee" and (emails.type eq "work")',
      and(cmp('userType', 'eq', 'Employee'), cmp('emails.type', 'eq', 'work')),
    ],
    [
      'userType eq "Employee" and emails[type eq "work" and value co "@example.com"]',
      and(
        cmp('userType', 'eq', 'Employee'),
        vp('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'co', '@example.com'))),
      ),
    ],
    [
      'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
      or(
        vp('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'co', '@example.com'))),
        vp('ims', and(cmp('type', 'eq', 'xmpp'), cmp('value', 'co', '@foo.com'))),
      ),
    ],
  ];
  it.each(examples)('%s', (text, expected) => {
    expect(parseFilter(text)).toEqual(expected);
  });
});

describe('parseFilter: precedence (RFC 7644 Figure 2)', () => {
  const a = pr('a');
  const b = pr('b');
  const c = pr('c');
  it('binds and tighter than or, on either side', () => {
    expect(parseFilter('a pr or b pr and c pr')).toEqual(or(a, and(b, c)));
    expect(parseFilter('a pr and b pr or c pr')).toEqual(or(and(a, b), c));
  });
  it('groups equal operators to the left', () => {
    expect(parseFilter('a pr and b pr and c pr')).toEqual(and(and(a, b), c));
    expect(parseFilter('a pr or b pr or c pr')).toEqual(or(or(a, b), c));
  });
  it('lets parentheses override precedence', () => {
    expect(parseFilter('(a pr or b pr) and c pr')).toEqual(and(or(a, b), c));
    expect(parseFilter('a pr and (b pr or c pr)')).toEqual(and(a, or(b, c)));
  });
  it('applies not to its parenthesised group only', () => {
    expect(parseFilter('not (a pr) and b pr')).toEqual(and(not(a), b));
    expect(parseFilter('not (a pr and b pr) or c pr')).toEqual(or(not(and(a, b)), c));
  });
  it('keeps grouping inside a value path (errata 7322)', () => {
    expect(parseFilter('emails[type eq "work" or (type eq "home" and primary eq true)]')).toEqual(
      vp(
        'emails',
        or(cmp('type', 'eq', 'work'), and(cmp('type', 'eq', 'home'), cmp('primary', 'eq', true))),
      ),
    );
  });
});

describe('parseFilter: what identity providers send', () => {
  it('reads the Entra ID and Okta lookups', () => {
    expect(parseFilter('userName eq "ada@example.org"')).toEqual(
      cmp('userName', 'eq', 'ada@example.org'),
    );
    expect(parseFilter('externalId eq "3b1f6a2e-0000-4c4c-9a9a-1234567890ab"')).toEqual(
      cmp('externalId', 'eq', '3b1f6a2e-0000-4c4c-9a9a-1234567890ab'),
    );
    expect(parseFilter('displayName eq "Sales Team"')).toEqual(
      cmp('displayName', 'eq', 'Sales Team'),
    );
  });
  it('reads Entra\'s emails[type eq "work"].value eq form as one value filter', () => {
    expect(parseFilter('emails[type eq "work"].value eq "ada@example.org"')).toEqual(
      vp('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'eq', 'ada@example.org'))),
    );
    expect(parseFilter('emails[type eq "work"].value pr and active eq true')).toEqual(
      and(vp('emails', and(cmp('type', 'eq', 'work'), pr('value'))), cmp('active', 'eq', true)),
    );
  });
  it('reads extension attributes with their URN and a sub-attribute', () => {
    expect(parseFilter(`${ENTERPRISE}:employeeNumber eq "701984"`)).toEqual(
      cmp(`${ENTERPRISE}:employeeNumber`, 'eq', '701984'),
    );
    expect(
      parseFilter(`${ENTERPRISE}:manager.value eq "26118915-6090-4610-87e4-49d8ca9f808d"`),
    ).toEqual(cmp(`${ENTERPRISE}:manager.value`, 'eq', '26118915-6090-4610-87e4-49d8ca9f808d'));
  });
});

describe('parseFilter: letters, literals and spacing', () => {
  it('accepts operators and keywords in any letter case, keeping names as sent', () => {
    expect(parseFilter('USERNAME EQ "x" AND Title PR OR NOT (Active Eq TRUE)')).toEqual(
      or(and(cmp('USERNAME', 'eq', 'x'), pr('Title')), not(cmp('Active', 'eq', true))),
    );
  });
  it('reads every JSON literal', () => {
    expect(parseFilter('a eq true')).toEqual(cmp('a', 'eq', true));
    expect(parseFilter('a eq False')).toEqual(cmp('a', 'eq', false));
    expect(parseFilter('a eq NULL')).toEqual(cmp('a', 'eq', null));
    expect(parseFilter('a gt -12.5e-1')).toEqual(cmp('a', 'gt', -1.25));
    expect(parseFilter('a ge 0')).toEqual(cmp('a', 'ge', 0));
    expect(parseFilter('a eq "q\\"uo\\\\te \\u00e9\\n\\/"')).toEqual(
      cmp('a', 'eq', 'q"uo\\te é\n/'),
    );
  });
  it('accepts not( without a space, extra spaces, tabs and line breaks', () => {
    expect(parseFilter('  not(a pr)\t and\n ( b pr )  ')).toEqual(and(not(pr('a')), pr('b')));
  });
  it('reads $ref and names with digits, hyphens and underscores', () => {
    expect(parseFilter('groups.$ref pr')).toEqual(pr('groups.$ref'));
    expect(parseFilter('x-custom_2 eq 1')).toEqual(cmp('x-custom_2', 'eq', 1));
  });
  it('reads attributes named like keywords where the grammar leaves no doubt', () => {
    expect(parseFilter('not eq "x"')).toEqual(cmp('not', 'eq', 'x'));
    expect(parseFilter('and pr or or pr')).toEqual(or(pr('and'), pr('or')));
  });
});

describe('parseFilter: bad filters answer 400 invalidFilter with the position', () => {
  const bad: [string, string][] = [
    ['', 'character 1'],
    ['   ', 'character 4'],
    ['userName', 'expected an operator'],
    ['userName eq', 'expected a value'],
    ['userName eq bjensen', 'expected a value'],
    ['userName equals "x"', 'character 10'],
    ['userName eq "x', 'unterminated string at character 13'],
    ['userName eq "x\\q"', 'invalid escape'],
    ['userName eq "\\u12G4"', 'invalid \\u escape'],
    ['a eq 01', 'malformed number'],
    ['a eq 1.', 'malformed number'],
    ['a eq 1e', 'malformed number'],
    ['a eq 12abc', 'malformed number'],
    ['a eq +1', 'expected a value'],
    ['a eq truex', 'expected a value'],
    ['a pr b pr', 'expected "and", "or" or the end of the filter at character 6'],
    ['a pr and', 'expected an attribute name'],
    ['(a pr', 'expected ")"'],
    ['a pr)', 'character 5'],
    ['not a pr', 'expected an operator'],
    ['emails[type eq "work"', 'expected "]"'],
    ['emails[type eq "work"]]', 'character 23'],
    ['emails[type[value pr]]', 'value paths cannot be nested'],
    ['emails[type eq "work"].', 'expected a sub-attribute name'],
    ['name.given.name pr', 'invalid character in attribute path'],
    ['1abc pr', 'expected an attribute name'],
    [':userName pr', 'expected a schema URN'],
    ['user*Name pr', 'invalid character'],
    ['userName eq "x" and', 'expected an attribute name'],
    ['"x" eq userName', 'expected an attribute name'],
  ];
  it.each(bad)('%j', (text, where) => {
    const error = errorOf(() => parseFilter(text));
    expect(error.status).toBe(400);
    expect(error.scimType).toBe('invalidFilter');
    expect(error.detail).toContain(where);
  });
});

describe('parseFilter: limits', () => {
  it('refuses a filter longer than 4096 characters by default, and honours maxLength', () => {
    const long = `userName eq "${'x'.repeat(5000)}"`;
    expect(errorOf(() => parseFilter(long)).detail).toContain('limit is 4096');
    expect(parseFilter(long, { maxLength: 10_000 })).toEqual(
      cmp('userName', 'eq', 'x'.repeat(5000)),
    );
    expect(errorOf(() => parseFilter('title pr', { maxLength: 5 })).scimType).toBe('invalidFilter');
  });
  it('accepts 32 levels of nesting and refuses 33', () => {
    const nested = (n: number) => `${'('.repeat(n)}a pr${')'.repeat(n)}`;
    expect(parseFilter(nested(32))).toEqual(pr('a'));
    expect(errorOf(() => parseFilter(nested(33))).detail).toContain('deeper than 32');
    const nots = (n: number) => `${'not ('.repeat(n)}a pr${')'.repeat(n)}`;
    expect(errorOf(() => parseFilter(nots(33))).scimType).toBe('invalidFilter');
    expect(errorOf(() => parseFilter(nested(3), { maxDepth: 2 })).detail).toContain(
      'deeper than 2',
    );
  });
  it('never overflows the stack on hostile input', () => {
    const hostile = '('.repeat(200_000);
    expect(errorOf(() => parseFilter(hostile, { maxLength: 1_000_000 })).scimType).toBe(
      'invalidFilter',
    );
    const longChain = Array.from({ length: 20_000 }, (_, i) => `a${i} pr`).join(' and ');
    const parsed = parseFilter(longChain, { maxLength: 1_000_000 });
    expect(parsed.kind).toBe('and');
  });
  it('refuses a value that is not a string', () => {
    expect(errorOf(() => parseFilter(42 as unknown as string)).scimType).toBe('invalidFilter');
  });
});
