import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { checkFilter, parseFilter } from '../../src/filter/index.js';
import type { Filter } from '../../src/filter/index.js';
import { and, cmp, not, or, pr, vp } from './ast-builders.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { ACCOUNT_SCHEMA, ENTERPRISE_USER_SCHEMA } from '../../src/schema/urns.js';

const type = userResourceType();
const check = (text: string): Filter => checkFilter(parseFilter(text), type);

function detailOf(text: string): string {
  try {
    check(text);
  } catch (error) {
    if (isScimError(error) && error.status === 400 && error.scimType === 'invalidFilter') {
      return error.detail;
    }
    throw error;
  }
  throw new Error(`expected ${text} to be refused`);
}

describe('checkFilter: canonical names', () => {
  it('rewrites attribute and sub-attribute names to the case of their definitions', () => {
    expect(check('USERNAME eq "x" and NAME.GIVENNAME sw "A" and meta.LASTMODIFIED pr')).toEqual(
      and(
        and(cmp('userName', 'eq', 'x'), cmp('name.givenName', 'sw', 'A')),
        pr('meta.lastModified'),
      ),
    );
  });
  it('drops the core schema URN and spells extension URNs as the schema does', () => {
    expect(check('urn:ietf:params:scim:schemas:core:2.0:user:userName sw "J"')).toEqual(
      cmp('userName', 'sw', 'J'),
    );
    expect(
      check('URN:IETF:PARAMS:SCIM:SCHEMAS:EXTENSION:ENTERPRISE:2.0:USER:manager.VALUE eq "42"'),
    ).toEqual(cmp(`${ENTERPRISE_USER_SCHEMA}:manager.value`, 'eq', '42'));
    expect(check(`${ACCOUNT_SCHEMA}:status eq "Invited"`)).toEqual(
      cmp(`${ACCOUNT_SCHEMA}:status`, 'eq', 'Invited'),
    );
  });
  it('reads a comparison on a multi-valued complex attribute as one on its value', () => {
    expect(check('Emails co "example.com"')).toEqual(cmp('emails.value', 'co', 'example.com'));
    expect(check('emails pr')).toEqual(pr('emails'));
  });
  it('resolves value-path filters against the sub-attributes, in any case', () => {
    expect(check('EMAILS[TYPE eq "work" and not (Primary eq false)]')).toEqual(
      vp('emails', and(cmp('type', 'eq', 'work'), not(cmp('primary', 'eq', false)))),
    );
    expect(check('emails[type eq "work"].VALUE eq "a@b.c"')).toEqual(
      vp('emails', and(cmp('type', 'eq', 'work'), cmp('value', 'eq', 'a@b.c'))),
    );
  });
  it('accepts the schemas attribute of every resource', () => {
    expect(check(`SCHEMAS eq "${ENTERPRISE_USER_SCHEMA}"`)).toEqual(
      cmp('schemas', 'eq', ENTERPRISE_USER_SCHEMA),
    );
  });
  it('keeps the shape of logical filters', () => {
    expect(check('title pr or (userType eq "Intern" and active eq true)')).toEqual(
      or(pr('title'), and(cmp('userType', 'eq', 'Intern'), cmp('active', 'eq', true))),
    );
  });
});

describe('checkFilter: refuses what does not fit the schema with 400 invalidFilter', () => {
  const bad: [string, string][] = [
    ['nickname2 eq "x"', 'the attribute "nickname2" is not defined'],
    ['name.nickName eq "x"', 'the attribute "name.nickName" is not defined'],
    ['employeeNumber eq "1"', 'not defined'],
    ['urn:example:unknown:2.0:User:userName eq "x"', 'not defined'],
    ['emails[kind eq "work"]', '"emails" has no sub-attribute "kind"'],
    ['emails[value.x eq "work"]', 'no sub-attribute'],
    ['userName[value eq "x"]', 'needs a complex attribute'],
    ['emails.value[type eq "x"]', 'needs a complex attribute'],
    ['name eq "Ada"', '"name" is a complex attribute'],
    [`${ENTERPRISE_USER_SCHEMA}:manager eq "42"`, 'is a complex attribute'],
    ['active gt true', '"gt" cannot order "active"'],
    ['emails.primary le false', 'cannot order'],
    ['x509Certificates.value gt "MII"', 'cannot order'],
    ['active co "tr"', '"co" needs a string attribute'],
    ['meta.created sw "2020"', 'needs a string attribute'],
    ['x509Certificates.value ew "=="', 'needs a string attribute'],
    ['active eq "yes"', 'compare it with a boolean'],
    ['active eq "True"', 'compare it with a boolean'],
    ['userName eq 42', 'compare it with a string'],
    ['userName eq true', 'compare it with a string'],
    ['meta.created gt 2020', 'compare it with a string'],
    ['meta.created gt "yesterday"', 'is not one'],
    ['meta.lastModified lt "2011-13-45"', 'is not one'],
    ['title gt null', '"gt" cannot compare "title" with null'],
    ['title co null', 'with null'],
    ['password eq "hunter2"', '"password" is never returned and cannot be filtered on'],
    ['PASSWORD pr', 'never returned'],
  ];
  it.each(bad)('%s', (text, detail) => {
    expect(detailOf(text)).toContain(detail);
  });
  it('refuses a value path nested in a value path built by hand', () => {
    const nested: Filter = vp('emails', vp('emails', pr('type')));
    expect(() => checkFilter(nested, type)).toThrow(/cannot be nested/);
  });
});

describe('checkFilter: accepts every operator that fits', () => {
  it.each([
    'userName eq "x"',
    'userName gt "m"',
    'profileUrl sw "https://"',
    'photos.value ew ".png"',
    'active ne false',
    'meta.created ge "2011-05-13T04:42:34Z"',
    'meta.lastModified lt "2011-05-13T04:42:34.5+02:00"',
    'title eq null',
    'active ne null',
    'x509Certificates.value eq "MIIDQzCCAqygAwIBAgICEAAwDQYJKoZIhvcNAQEFBQAwTjELMAkGA1UEBhMCVVMx"',
    'groups.$ref pr',
  ])('%s', (text) => {
    expect(() => check(text)).not.toThrow();
  });
});
