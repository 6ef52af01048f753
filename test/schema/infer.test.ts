import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineAttribute } from '../../src/schema/define-attribute.js';
import { defineSchema } from '../../src/schema/define-schema.js';
import type {
  InferAttribute,
  InferAttributes,
  InferExtension,
  WithExtension,
} from '../../src/schema/infer.js';
import type {
  AccountExtension,
  EnterpriseUser,
  MultiValue,
  ScimUser,
  ScimUserAttributes,
  UserMeta,
  UserName,
} from '../../src/schema/user-resource.js';
import type { AccountStatus, accountSchema } from '../../src/schema/user-schema.js';
import type { ACCOUNT_SCHEMA, ENTERPRISE_USER_SCHEMA } from '../../src/schema/urns.js';

const districtSchema = defineSchema({
  id: 'urn:example:params:scim:schemas:extension:district:2.0:User',
  name: 'District',
  description: 'District student data',
  attributes: [
    defineAttribute('studentNumber', 'string', { required: true, mutability: 'immutable' }),
    defineAttribute('enrolledAt', 'dateTime'),
    defineAttribute('grade', 'integer'),
    defineAttribute('gpa', 'decimal'),
    defineAttribute('boarder', 'boolean'),
    defineAttribute('tags', 'string', { multiValued: true }),
    defineAttribute('guardian', 'complex', {
      subAttributes: [
        defineAttribute('value', 'string', { required: true }),
        defineAttribute('phone', 'string'),
      ],
    }),
    defineAttribute('secret', 'string', { returned: 'never', mutability: 'writeOnly' }),
  ],
});

describe('types inferred from the schema definitions', () => {
  it('defines attributes with the RFC 7643 §2.2 defaults at run time', () => {
    expect(districtSchema.attributes[1]).toEqual({
      name: 'enrolledAt',
      type: 'dateTime',
      multiValued: false,
      description: '',
      required: false,
      caseExact: false,
      mutability: 'readWrite',
      returned: 'default',
      uniqueness: 'none',
    });
    expect(districtSchema.attributes[0]).toMatchObject({ required: true, mutability: 'immutable' });
  });

  it('keeps the literal characteristics of defineAttribute', () => {
    const a = defineAttribute('grade', 'integer', { multiValued: true });
    expectTypeOf(a.name).toEqualTypeOf<'grade'>();
    expectTypeOf(a.type).toEqualTypeOf<'integer'>();
    expectTypeOf(a.multiValued).toEqualTypeOf<true>();
    expectTypeOf(a.mutability).toEqualTypeOf<'readWrite'>();
    expectTypeOf(a.required).toEqualTypeOf<false>();
  });

  it('maps each RFC 7643 type to its JSON type, multi-valued to arrays', () => {
    expectTypeOf<
      InferAttribute<ReturnType<typeof defineAttribute<'x', 'boolean'>>>
    >().toEqualTypeOf<boolean>();
    type District = InferExtension<typeof districtSchema>;
    expectTypeOf<District>().toEqualTypeOf<{
      studentNumber: string;
      enrolledAt?: string;
      grade?: number;
      gpa?: number;
      boarder?: boolean;
      tags?: string[];
      guardian?: { value: string; phone?: string };
    }>();
  });

  it('gives a host a typed user with its extension', () => {
    type DistrictUser = ScimUser & WithExtension<typeof districtSchema>;
    expectTypeOf<DistrictUser[typeof districtSchema.id]>().toEqualTypeOf<
      InferExtension<typeof districtSchema> | undefined
    >();
  });

  it('derives ScimUser with every property the hand-written type had', () => {
    expectTypeOf<ScimUser['schemas']>().toEqualTypeOf<string[]>();
    expectTypeOf<ScimUser['id']>().toEqualTypeOf<string>();
    expectTypeOf<ScimUser['userName']>().toEqualTypeOf<string>();
    // Unassigned once a client removed it (RFC 7644 §3.5.2.2).
    expectTypeOf<ScimUser['active']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<ScimUser['externalId']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ScimUser['displayName']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ScimUser['name']>().toEqualTypeOf<UserName | undefined>();
    expectTypeOf<ScimUser['emails']>().toEqualTypeOf<MultiValue[] | undefined>();
    expectTypeOf<ScimUser['roles']>().toEqualTypeOf<MultiValue[] | undefined>();
    expectTypeOf<ScimUser['meta']>().toEqualTypeOf<UserMeta>();
    expectTypeOf<ScimUser[typeof ACCOUNT_SCHEMA]>().toEqualTypeOf<AccountExtension>();
    expectTypeOf<ScimUser['favouriteColour']>().toEqualTypeOf<unknown>();
    expectTypeOf<
      Required<ScimUser>[typeof ENTERPRISE_USER_SCHEMA]
    >().toMatchTypeOf<EnterpriseUser>();
  });

  it('types the parts as the hand-written interfaces did', () => {
    expectTypeOf<MultiValue>().toEqualTypeOf<{
      value?: string;
      display?: string;
      type?: string;
      primary?: boolean;
    }>();
    expectTypeOf<UserName>().toEqualTypeOf<{
      formatted?: string;
      familyName?: string;
      givenName?: string;
      middleName?: string;
      honorificPrefix?: string;
      honorificSuffix?: string;
    }>();
    expectTypeOf<UserMeta>().toEqualTypeOf<{
      resourceType: 'User';
      created: string;
      lastModified: string;
      version: string;
      location?: string;
    }>();
    expectTypeOf<AccountStatus>().toEqualTypeOf<
      'Pending' | 'Invited' | 'Activated' | 'Deactivated'
    >();
    expectTypeOf<AccountExtension>().toEqualTypeOf<{
      status: AccountStatus;
      invitedAt?: string;
      activatedAt?: string;
    }>();
    expectTypeOf<EnterpriseUser['manager']>().toEqualTypeOf<
      { value?: string; $ref?: string; displayName?: string } | undefined
    >();
  });

  it('leaves out what is never returned (password) and closes readOnly canonical values', () => {
    // The index signature still admits any key; the schema view has no password.
    expectTypeOf<
      'password' extends keyof ScimUserAttributes ? true : false
    >().toEqualTypeOf<false>();
    expectTypeOf<NonNullable<ScimUser['groups']>[number]['type']>().toEqualTypeOf<
      'direct' | 'indirect' | undefined
    >();
    expectTypeOf<keyof InferAttributes<typeof accountSchema.attributes>>().toEqualTypeOf<
      'status' | 'invitedAt' | 'activatedAt'
    >();
  });
});
