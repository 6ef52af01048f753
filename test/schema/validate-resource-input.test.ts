import { describe, expect, it } from 'vitest';
import { isScimError } from '../../src/errors/index.js';
import { defineAttribute } from '../../src/schema/define-attribute.js';
import { defineSchema } from '../../src/schema/define-schema.js';
import { userSchema } from '../../src/schema/user-schema.js';
import { compileResourceInput } from '../../src/schema/compile-resource-input.js';
import { resolveDialectRules } from '../../src/schema/dialect-rules.js';
import { validateResourceInput } from '../../src/schema/validate-resource-input.js';
import { body, DISTRICT, ENTERPRISE_USER_SCHEMA, schemas, USER_SCHEMA } from './fixtures.js';

const ACCOUNT = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';
const compiled = compileResourceInput(schemas);
const validate = (extra: Record<string, unknown>) => validateResourceInput(body(extra), compiled);
const district = (values: Record<string, unknown>) =>
  validate({ [DISTRICT]: values }).attributes[DISTRICT];

/** The ScimError a call throws: its scimType and detail. */
function failure(run: () => unknown): { scimType: string | undefined; detail: string } {
  try {
    run();
  } catch (error) {
    if (!isScimError(error)) throw error;
    expect(error.status).toBe(400);
    return { scimType: error.scimType, detail: error.detail };
  }
  throw new Error('expected a ScimError');
}
const invalid = (extra: Record<string, unknown>) => failure(() => validate(extra));

describe('validateResourceInput: values per type', () => {
  it('string: takes strings, refuses anything else and names the attribute', () => {
    expect(validate({ displayName: 'Ada' }).attributes.displayName).toBe('Ada');
    expect(invalid({ displayName: 7 })).toEqual({
      scimType: 'invalidValue',
      detail: '"displayName" must be a string; got 7.',
    });
    expect(invalid({ displayName: ['Ada'] }).detail).toMatch(/"displayName" must be a string/);
  });

  it('boolean: true/false, and "True"/"False" strings in any case', () => {
    expect(validate({ active: true }).attributes.active).toBe(true);
    expect(validate({ active: 'True' }).attributes.active).toBe(true);
    expect(validate({ active: 'FALSE' }).attributes.active).toBe(false);
    expect(district({ boarder: 'false' })).toEqual({ boarder: false });
    expect(invalid({ active: 'yes' })).toEqual({
      scimType: 'invalidValue',
      detail: '"active" must be a boolean; got "yes".',
    });
    expect(invalid({ active: 1 }).detail).toMatch(/"active" must be a boolean/);
  });

  it('integer vs decimal: integers only where integer, any finite number where decimal', () => {
    expect(district({ grade: 11, gpa: 3 })).toEqual({ grade: 11, gpa: 3 });
    expect(district({ gpa: 3.75 })).toEqual({ gpa: 3.75 });
    expect(invalid({ [DISTRICT]: { grade: 11.5 } }).detail).toBe(
      `"${DISTRICT}:grade" must be an integer; got 11.5.`,
    );
    expect(invalid({ [DISTRICT]: { grade: '11' } }).detail).toMatch(/must be an integer; got "11"/);
    expect(invalid({ [DISTRICT]: { gpa: '3.5' } }).detail).toMatch(/:gpa" must be a number/);
    expect(invalid({ [DISTRICT]: { gpa: Infinity } }).detail).toMatch(
      /:gpa" must be a finite number/,
    );
  });

  it('dateTime: an xsd:dateTime, not whatever Date.parse accepts', () => {
    for (const [sent, stored] of [
      ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00Z'],
      ['2026-01-31T12:00:00.125+02:00', '2026-01-31T12:00:00.125+02:00'],
      ['2026-01-31T12:00', '2026-01-31T12:00:00Z'],
    ]) {
      expect(district({ enrolledAt: sent })).toEqual({ enrolledAt: stored });
    }
    for (const bad of ['1', 'March 7, 2026', '2026-01-31', '2026-13-01T00:00:00Z', 20260131]) {
      expect(invalid({ [DISTRICT]: { enrolledAt: bad } }).detail).toMatch(
        /:enrolledAt" must be an xsd:dateTime/,
      );
    }
  });

  it('reference and binary: strings', () => {
    expect(validate({ profileUrl: 'https://example.org/ada' }).attributes.profileUrl).toBe(
      'https://example.org/ada',
    );
    expect(district({ website: 'https://example.org', badge: 'AAEC' })).toEqual({
      website: 'https://example.org',
      badge: 'AAEC',
    });
    expect(invalid({ profileUrl: { href: 'x' } }).detail).toMatch(/"profileUrl" must be a string/);
    expect(invalid({ x509Certificates: [{ value: 42 }] }).detail).toBe(
      '"x509Certificates[0].value" must be a string; got 42.',
    );
  });

  it('complex: an object of sub-attributes; required sub-attributes; empty means no value', () => {
    expect(
      validate({ name: { givenName: 'Ada', nickname: 'unknown sub' } }).attributes.name,
    ).toEqual({ givenName: 'Ada' });
    expect(invalid({ name: 'Ada Lovelace' })).toEqual({
      scimType: 'invalidValue',
      detail: '"name" must be an object; got "Ada Lovelace".',
    });
    expect(invalid({ name: { givenName: 7 } }).detail).toBe(
      '"name.givenName" must be a string; got 7.',
    );
    expect(validate({ name: {} }).attributes).not.toHaveProperty('name');
    expect(validate({ name: { givenName: null } }).attributes).not.toHaveProperty('name');
    expect(invalid({ [DISTRICT]: { guardian: { phone: '555' } } })).toEqual({
      scimType: 'invalidValue',
      detail: `"${DISTRICT}:guardian.name" is required.`,
    });
  });

  it('multi-valued: a list, one value taken as a list of one, null and empty lists are no value, a null element is refused', () => {
    expect(validate({ emails: { value: 'a@x.org' } }).attributes.emails).toEqual([
      { value: 'a@x.org' },
    ]);
    expect(invalid({ emails: ['a@x.org', null] }).detail).toBe(
      '"emails[1]" must not be null (null unassigns a whole attribute, never one value).',
    );
    expect(invalid({ roles: [null] }).detail).toContain('"roles[0]" must not be null');
    expect(validate({ emails: [], phoneNumbers: null }).attributes).toEqual({
      userName: 'ada@example.org',
    });
    expect(district({ tags: 'chess' })).toEqual({ tags: ['chess'] });
    expect(invalid({ [DISTRICT]: { tags: ['chess', 7] } }).detail).toBe(
      `"${DISTRICT}:tags[1]" must be a string; got 7.`,
    );
    expect(
      invalid({ emails: [{ value: 'a@x.org' }, { value: 'b@x.org', primary: 'maybe' }] }).detail,
    ).toBe('"emails[1].primary" must be a boolean; got "maybe".');
  });

  it('multi-valued: at most one primary value', () => {
    const two = [
      { value: 'a@x.org', primary: true },
      { value: 'b@x.org', primary: 'True' },
    ];
    expect(invalid({ emails: two })).toEqual({
      scimType: 'invalidValue',
      detail: '"emails" may have at most one primary value.',
    });
    expect(
      validate({ emails: [two[0], { value: 'b@x.org', primary: false }] }).attributes.emails,
    ).toHaveLength(2);
  });

  it('multi-valued: JSON inside `value` is read the same whatever the letter case of `value`', () => {
    const encoded = JSON.stringify({ value: 'Admin', displayName: 'Administrator' });
    const lower = validate({ roles: [{ value: encoded }] }).attributes.roles;
    expect(lower).toEqual([{ value: 'Admin', display: 'Administrator' }]);
    expect(validate({ roles: [{ VALUE: encoded }] }).attributes.roles).toEqual(lower);
    // Read again, the value stays what it became.
    expect(validate({ roles: lower }).attributes.roles).toEqual(lower);
  });
});

describe('validateResourceInput: names, mutability and schemas', () => {
  it('matches names regardless of case and returns them canonical', () => {
    const input = validateResourceInput(
      {
        SCHEMAS: 'ignored: only the canonical key "schemas" counts',
        schemas: [USER_SCHEMA.toUpperCase(), ENTERPRISE_USER_SCHEMA],
        USERNAME: 'ada@example.org',
        Name: { GIVENNAME: 'Ada' },
        EMAILS: [{ VALUE: 'a@x.org', Primary: 'true' }],
        [ENTERPRISE_USER_SCHEMA.toLowerCase()]: { EmployeeNumber: '7', MANAGER: { Value: 'm1' } },
      },
      compiled,
    );
    expect(input.attributes).toEqual({
      userName: 'ada@example.org',
      name: { givenName: 'Ada' },
      emails: [{ value: 'a@x.org', primary: true }],
      [ENTERPRISE_USER_SCHEMA]: { employeeNumber: '7', manager: { value: 'm1' } },
    });
  });

  it('drops readOnly attributes and sub-attributes a client sends, keeps id apart', () => {
    const input = validate({
      id: 'client-id',
      meta: { version: 'W/"9"' },
      groups: [{ value: 'g1' }],
      [ACCOUNT]: { status: 'Activated' },
      [ENTERPRISE_USER_SCHEMA]: { manager: { value: 'm1', displayName: 'Boss' } },
      [DISTRICT]: { lockerCode: 12, guardian: { name: 'Grace', verified: true } },
    });
    expect(input.id).toBe('client-id');
    expect(input.attributes).toEqual({
      userName: 'ada@example.org',
      [ENTERPRISE_USER_SCHEMA]: { manager: { value: 'm1' } },
      [DISTRICT]: { guardian: { name: 'Grace' } },
    });
  });

  it('managerEmptyString: an empty manager id is no manager, as in a PATCH; kept with the rule off', () => {
    // Entra ID's gallery validation clears the manager with "" (docs/idp.md); OneLogin's
    // template sends {"value": "", "displayName": " "} for a manager it has not set.
    const forms = ['', { value: '' }, { VALUE: '' }, { value: '', displayName: ' ' }];
    for (const manager of forms) {
      const input = validate({ [ENTERPRISE_USER_SCHEMA]: { manager } });
      expect(input.attributes, JSON.stringify(manager)).toEqual({ userName: 'ada@example.org' });
      expect(
        validate({ [ENTERPRISE_USER_SCHEMA]: { department: 'Music', manager } }).attributes[
          ENTERPRISE_USER_SCHEMA
        ],
      ).toEqual({ department: 'Music' });
    }
    // Another manager id, and an empty string elsewhere, are values as before.
    expect(validate({ [ENTERPRISE_USER_SCHEMA]: { manager: ' ' } }).attributes).toMatchObject({
      [ENTERPRISE_USER_SCHEMA]: { manager: { value: ' ' } },
    });
    expect(validate({ [ENTERPRISE_USER_SCHEMA]: { department: '' } }).attributes).toMatchObject({
      [ENTERPRISE_USER_SCHEMA]: { department: '' },
    });
    // Rule off: "" is a string like any other (RFC 7643 §2.5 makes only null and [] no value).
    const strict = compileResourceInput(
      schemas,
      resolveDialectRules({ managerEmptyString: false }),
    );
    for (const manager of forms) {
      const input = validateResourceInput(body({ [ENTERPRISE_USER_SCHEMA]: { manager } }), strict);
      expect(input.attributes[ENTERPRISE_USER_SCHEMA]).toEqual({ manager: { value: '' } });
    }
    // Both rules off: a bare string is no complex value at all.
    const bare = compileResourceInput(
      schemas,
      resolveDialectRules({ managerEmptyString: false, managerString: false }),
    );
    expect(
      failure(() =>
        validateResourceInput(body({ [ENTERPRISE_USER_SCHEMA]: { manager: '' } }), bare),
      ).detail,
    ).toMatch(/:manager" must be an object/);
  });

  it('keeps the writeOnly password out of the attributes', () => {
    const input = validate({ password: 'hunter2' });
    expect(input.password).toBe('hunter2');
    expect(input.attributes).not.toHaveProperty('password');
    expect(validate({ password: null })).not.toHaveProperty('password');
    expect(invalid({ password: 1234 }).detail).toBe('"password" must be a string; got 1234.');
  });

  it('ignores attributes no schema defines', () => {
    expect(validate({ favouriteColour: 'green', [DISTRICT]: { shoeSize: 9 } }).attributes).toEqual({
      userName: 'ada@example.org',
    });
  });

  it('answers invalidValue for an unknown URN, invalidSyntax without the core URN or an object', () => {
    expect(
      failure(() =>
        validateResourceInput(
          { schemas: [USER_SCHEMA, 'urn:x:nope'], userName: 'a@x.org' },
          compiled,
        ),
      ).scimType,
    ).toBe('invalidValue');
    expect(
      failure(() => validateResourceInput({ schemas: [DISTRICT], userName: 'a@x.org' }, compiled))
        .scimType,
    ).toBe('invalidSyntax');
    expect(failure(() => validateResourceInput({ userName: 'a@x.org' }, compiled)).scimType).toBe(
      'invalidSyntax',
    );
    expect(failure(() => validateResourceInput([], compiled)).scimType).toBe('invalidSyntax');
    expect(invalid({ [DISTRICT]: 'x' }).detail).toBe(`"${DISTRICT}" must be an object; got "x".`);
  });

  it('compiles without a cache: each call builds its own rules, which answer alike', () => {
    const again = compileResourceInput(schemas);
    expect(again).not.toBe(compiled);
    expect(again.shape).not.toBe(compiled.shape);
    const sent = body({ active: 'True', emails: [{ value: 'a@x.org' }] });
    expect(validateResourceInput(sent, again)).toEqual(validateResourceInput(sent, compiled));
  });
});

describe('validateResourceInput: required attributes of a host extension', () => {
  const clubSchema = defineSchema({
    id: 'urn:example:club:2.0:User',
    name: 'Club',
    description: '',
    attributes: [
      defineAttribute('memberId', 'string', { required: true }),
      defineAttribute('level', 'integer'),
    ],
  });
  const withClub = compileResourceInput([userSchema, clubSchema]);
  const send = (club: unknown) =>
    validateResourceInput(
      { schemas: [USER_SCHEMA], userName: 'a@x.org', 'urn:example:club:2.0:User': club },
      withClub,
    );

  it('must have a value when the body carries the extension, and only then', () => {
    expect(send({ memberId: 'M1' }).attributes['urn:example:club:2.0:User']).toEqual({
      memberId: 'M1',
    });
    expect(send(null).attributes).toEqual({ userName: 'a@x.org' });
    expect(failure(() => send({ level: 3 }))).toEqual({
      scimType: 'invalidValue',
      detail: '"urn:example:club:2.0:User:memberId" is required.',
    });
    expect(failure(() => send({ memberId: null })).detail).toMatch(/:memberId" is required/);
  });
});

describe('validateResourceInput: one value at a time (formerly coerceValue)', () => {
  it('coerces one value and names its path in errors', () => {
    expect(validate({ active: 'True' }).attributes.active).toBe(true);
    expect(validate({ active: null }).attributes).not.toHaveProperty('active');
    expect(validate({ emails: [] }).attributes).not.toHaveProperty('emails');
    expect(invalid({ emails: { value: 1 } }).detail).toBe(
      '"emails[0].value" must be a string; got 1.',
    );
  });
});
