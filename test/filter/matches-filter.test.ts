import { describe, expect, it } from 'vitest';
import { compileFilter, matchesFilter, parseFilter } from '../../src/filter/index.js';
import { userSchema } from '../../src/schema/user-schema.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { resourceTypeOf } from '../patch/fixtures.js';
import { ACCOUNT_SCHEMA, ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../../src/schema/urns.js';

const type = userResourceType();

const bjensen: Record<string, unknown> = {
  schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, ACCOUNT_SCHEMA],
  id: '2819c223-7f76-453a-919d-413861904646',
  externalId: 'Bjensen-701984',
  userName: 'BJensen@Example.com',
  name: { familyName: "O'Malley", givenName: 'Barbara' },
  displayName: 'Babs Jensen',
  title: '',
  userType: 'Employee',
  active: true,
  emails: [
    { value: 'bjensen@example.com', type: 'work', primary: true },
    { value: 'babs@jensen.org', type: 'home' },
  ],
  roles: [],
  x509Certificates: [{ value: 'MIIDQzCCAqy' }],
  [ENTERPRISE_USER_SCHEMA]: { employeeNumber: '701984', manager: { value: '26118915' } },
  [ACCOUNT_SCHEMA]: { status: 'Invited' },
  meta: {
    resourceType: 'User',
    created: '2010-01-23T04:56:22Z',
    lastModified: '2011-05-13T04:42:34Z',
    version: 'W/"3694e05e9dff590"',
  },
};

const matches = (text: string, resource: Record<string, unknown> = bjensen) =>
  matchesFilter(resource, parseFilter(text), type);

describe('matchesFilter: case rules follow caseExact', () => {
  it('compares userName and emails without case', () => {
    expect(matches('userName eq "bjensen@example.com"')).toBe(true);
    expect(matches('USERNAME EQ "BJENSEN@EXAMPLE.COM"')).toBe(true);
    expect(matches('emails.value eq "BJENSEN@example.COM"')).toBe(true);
    expect(matches('emails co "JENSEN.ORG"')).toBe(true);
    expect(matches('userName sw "bjen"')).toBe(true);
    expect(matches('userName ew ".COM"')).toBe(true);
  });
  it('compares id, externalId and the account status with case', () => {
    expect(matches('externalId eq "Bjensen-701984"')).toBe(true);
    expect(matches('externalId eq "bjensen-701984"')).toBe(false);
    expect(matches('id eq "2819C223-7F76-453A-919D-413861904646"')).toBe(false);
    expect(matches(`${ACCOUNT_SCHEMA}:status eq "invited"`)).toBe(false);
    expect(matches(`${ACCOUNT_SCHEMA}:status eq "Invited"`)).toBe(true);
  });
  it('orders strings lexicographically, folding case where the attribute does', () => {
    expect(matches('userName gt "a"')).toBe(true);
    expect(matches('userName lt "C"')).toBe(true);
    expect(matches('externalId lt "a"')).toBe(true); // "B" < "a" in code-unit order
  });
});

describe('matchesFilter: types', () => {
  it('compares dateTimes as instants, whatever their offset', () => {
    expect(matches('meta.lastModified eq "2011-05-13T06:42:34+02:00"')).toBe(true);
    expect(matches('meta.lastModified ge "2011-05-13T04:42:34Z"')).toBe(true);
    expect(matches('meta.lastModified gt "2011-05-13T04:42:34Z"')).toBe(false);
    expect(matches('meta.created lt "2011-05-13T04:42:34.000Z"')).toBe(true);
    expect(matches('meta.created le "2010-01-23T04:56:21.999Z"')).toBe(false);
  });
  it('compares booleans', () => {
    expect(matches('active eq true')).toBe(true);
    expect(matches('active ne true')).toBe(false);
    expect(matches('emails[primary eq true and type eq "work"]')).toBe(true);
    expect(matches('emails[primary eq true and type eq "home"]')).toBe(false);
  });
  it('compares numbers of integer and decimal attributes', () => {
    const schema = {
      id: 'urn:example:scores',
      name: 'Scores',
      description: '',
      attributes: [
        { ...userSchema.attributes[0]!, name: 'level', type: 'integer' as const, caseExact: false },
        { ...userSchema.attributes[0]!, name: 'ratio', type: 'decimal' as const, caseExact: false },
      ],
    };
    const resource = { level: 3, ratio: 0.25 };
    const test = (text: string) =>
      matchesFilter(resource, parseFilter(text), resourceTypeOf([schema]));
    expect(test('level eq 3')).toBe(true);
    expect(test('level gt 2.5 and ratio lt 1')).toBe(true);
    expect(test('ratio ge 0.3')).toBe(false);
    expect(test('level ne 3')).toBe(false);
  });
});

describe('matchesFilter: multi-valued attributes and value paths', () => {
  it('matches when any value matches', () => {
    expect(matches('emails.type eq "home"')).toBe(true);
    expect(matches('emails.type eq "other"')).toBe(false);
    expect(matches(`schemas eq "${ENTERPRISE_USER_SCHEMA.toUpperCase()}"`)).toBe(true);
  });
  it('needs one value to satisfy the whole bracket filter', () => {
    expect(matches('emails[type eq "work" and value co "@example.com"]')).toBe(true);
    expect(matches('emails[type eq "home" and value co "@example.com"]')).toBe(false);
    expect(matches('emails[type eq "work"].value eq "bjensen@example.com"')).toBe(true);
    expect(matches('emails[type eq "home"].value eq "bjensen@example.com"')).toBe(false);
  });
  it('filters a single-valued complex attribute with brackets too', () => {
    expect(matches(`${ENTERPRISE_USER_SCHEMA}:manager[value eq "26118915"]`)).toBe(true);
  });
});

describe('matchesFilter: presence, absence and ne', () => {
  it('treats null, empty strings, empty arrays and empty complex values as absent', () => {
    expect(matches('displayName pr')).toBe(true);
    expect(matches('title pr')).toBe(false);
    expect(matches('roles pr')).toBe(false);
    expect(matches('nickName pr')).toBe(false);
    expect(matches('name pr')).toBe(true);
    expect(matches('name pr', { ...bjensen, name: { givenName: '' } })).toBe(false);
    expect(matches('emails pr')).toBe(true);
    expect(matches('emails.display pr')).toBe(false);
  });
  it('answers ne true for an absent attribute', () => {
    expect(matches('nickName ne "Babs"')).toBe(true);
    expect(matches('displayName ne "Babs Jensen"')).toBe(false);
    expect(matches('userType ne "Employee" and not (emails co "example.com")')).toBe(false);
  });
  it('reads eq null as absent and ne null as present', () => {
    expect(matches('nickName eq null')).toBe(true);
    expect(matches('title eq null')).toBe(true);
    expect(matches('displayName ne null')).toBe(true);
    expect(matches('displayName eq null')).toBe(false);
  });
  it('reads extension attributes under their URN key', () => {
    expect(matches(`${ENTERPRISE_USER_SCHEMA}:employeeNumber eq "701984"`)).toBe(true);
    expect(matches(`${ENTERPRISE_USER_SCHEMA}:manager.value eq "26118915"`)).toBe(true);
    expect(matches(`${ENTERPRISE_USER_SCHEMA}:department pr`)).toBe(false);
    const plain = { userName: 'x@example.com' };
    expect(matches(`${ENTERPRISE_USER_SCHEMA}:employeeNumber ne "1"`, plain)).toBe(true);
  });
});

describe('matchesFilter: RFC 7644 examples against bjensen', () => {
  it.each([
    ['userName eq "bjensen@example.com"', true],
    [`name.familyName co "O'Malley"`, true],
    ['userName sw "J"', false],
    ['urn:ietf:params:scim:schemas:core:2.0:User:userName sw "B"', true],
    ['title pr and userType eq "Employee"', false],
    ['title pr or userType eq "Intern"', false],
    ['userType eq "Employee" and (emails co "example.com" or emails.value co "example.org")', true],
    [
      'userType ne "Employee" and not (emails co "example.com" or emails.value co "example.org")',
      false,
    ],
    ['userType eq "Employee" and (emails.type eq "work")', true],
    [
      'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
      true,
    ],
  ])('%s → %s', (text, expected) => {
    expect(matches(text)).toBe(expected);
  });
});

describe('compileFilter', () => {
  it('returns a predicate to filter many resources', () => {
    const users = [bjensen, { ...bjensen, userName: 'other@example.com' }];
    const predicate = compileFilter(parseFilter('userName eq "bjensen@example.com"'), type);
    expect(users.filter(predicate)).toEqual([bjensen]);
  });
  it('refuses a filter that does not fit the schemas', () => {
    expect(() => compileFilter(parseFilter('nope pr'), type)).toThrow(/not defined/);
  });
});
