import { defineAttribute as attr, type AttributeOptions } from './define-attribute.js';
import { defineSchema } from './define-schema.js';
import { externalIdAttribute, idAttribute, metaAttribute } from './common-attributes.js';
import type { InferExtension } from './infer.js';
import type { AttributeDefinition } from './types.js';
import { ACCOUNT_SCHEMA, ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from './urns.js';

// The helpers are generic so every attribute keeps its literal characteristics: the ScimUser
// type is inferred from these tables.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
const str = <const N extends string, const O extends AttributeOptions = {}>(
  name: N,
  description: string,
  options: O = {} as O,
) => attr(name, 'string', { description, ...options });

/** Sub-attributes shared by the plain multi-valued attributes (`emails`, `roles`, ...). */
function multiValuedOf<const V extends 'string' | 'reference' | 'binary'>(
  valueType: V,
  description: string,
  options: {
    types?: readonly string[];
    valueCaseExact?: boolean;
    referenceTypes?: readonly string[];
  } = {},
) {
  const value = attr('value', valueType, {
    description,
    caseExact: options.valueCaseExact ?? false,
    ...(options.referenceTypes ? { referenceTypes: options.referenceTypes } : {}),
  });
  return [
    value,
    str('display', 'A human-readable name, primarily used for display purposes.'),
    str(
      'type',
      "A label indicating the attribute's function.",
      options.types ? { canonicalValues: options.types } : {},
    ),
    attr('primary', 'boolean', {
      description: 'Indicates the primary or preferred value; at most one value may be primary.',
    }),
  ] as const;
}

const multi = <const N extends string, const S extends readonly AttributeDefinition[]>(
  name: N,
  description: string,
  subAttributes: S,
) => attr(name, 'complex', { multiValued: true, description, subAttributes });

/**
 * The RFC 7643 §4.1 core User, every attribute with its characteristics, plus the common
 * attributes of §3.1 (`id`, `externalId`, `meta`).
 *
 * @see RFC 7643 §4.1, §8.7.1
 */
export const userSchema = defineSchema({
  id: USER_SCHEMA,
  name: 'User',
  description: 'User Account',
  attributes: [
    idAttribute,
    externalIdAttribute,
    str('userName', 'Unique identifier for the User; unique per tenant regardless of case.', {
      required: true,
      uniqueness: 'server',
      returned: 'always',
    }),
    attr('name', 'complex', {
      description: "The components of the user's real name.",
      subAttributes: [
        str('formatted', 'The full name, formatted for display.'),
        str('familyName', 'The family name of the User.'),
        str('givenName', 'The given name of the User.'),
        str('middleName', 'The middle name(s) of the User.'),
        str('honorificPrefix', 'The honorific prefix(es) of the User.'),
        str('honorificSuffix', 'The honorific suffix(es) of the User.'),
      ],
    }),
    str('displayName', 'The name of the User, suitable for display to end-users.'),
    str('nickName', 'The casual way to address the user in real life.'),
    attr('profileUrl', 'reference', {
      description:
        "A fully qualified URL pointing to a page representing the User's online profile.",
      referenceTypes: ['external'],
    }),
    str('title', 'The user\'s title, such as "Vice President".'),
    str('userType', 'Identifies the relationship between the organization and the user.'),
    str(
      'preferredLanguage',
      "The User's preferred written or spoken language (RFC 7231 Accept-Language).",
    ),
    str('locale', "The User's default location for localization (e.g. en-US)."),
    str('timezone', "The User's time zone in IANA Time Zone database format."),
    attr('active', 'boolean', { description: "The User's administrative status." }),
    str(
      'password',
      "The User's cleartext password; write-only, never stored in plain text or returned.",
      {
        mutability: 'writeOnly',
        returned: 'never',
      },
    ),
    multi(
      'emails',
      'Email addresses for the user.',
      multiValuedOf('string', 'Email address for the user.', { types: ['work', 'home', 'other'] }),
    ),
    multi(
      'phoneNumbers',
      'Phone numbers for the User.',
      multiValuedOf('string', 'Phone number of the User.', {
        types: ['work', 'home', 'mobile', 'fax', 'pager', 'other'],
      }),
    ),
    multi(
      'ims',
      'Instant messaging addresses for the User.',
      multiValuedOf('string', 'Instant messaging address for the User.', {
        types: ['aim', 'gtalk', 'icq', 'xmpp', 'msn', 'skype', 'qq', 'yahoo'],
      }),
    ),
    multi(
      'photos',
      'URLs of photos of the User.',
      multiValuedOf('reference', 'URL of a photo of the User.', {
        types: ['photo', 'thumbnail'],
        referenceTypes: ['external'],
        valueCaseExact: true,
      }),
    ),
    multi('addresses', 'A physical mailing address for this User.', [
      str('formatted', 'The full mailing address, formatted for display.'),
      str('streetAddress', 'The full street address component.'),
      str('locality', 'The city or locality component.'),
      str('region', 'The state or region component.'),
      str('postalCode', 'The zip code or postal code component.'),
      str('country', 'The country name component (ISO 3166-1 alpha-2).'),
      str('type', "A label indicating the attribute's function.", {
        canonicalValues: ['work', 'home', 'other'],
      }),
      attr('primary', 'boolean', { description: 'Indicates the primary or preferred address.' }),
    ]),
    attr('groups', 'complex', {
      multiValued: true,
      mutability: 'readOnly',
      description: 'A list of groups to which the user belongs; managed through Group resources.',
      subAttributes: [
        // caseExact as the group `id` it refers to (RFC 7643 §8.7.1 leaves it false), as a
        // Group's `members.value` is.
        str('value', "The identifier of the User's group.", {
          mutability: 'readOnly',
          caseExact: true,
        }),
        attr('$ref', 'reference', {
          description: 'The URI of the corresponding Group resource.',
          mutability: 'readOnly',
          referenceTypes: ['User', 'Group'],
        }),
        str('display', 'A human-readable name.', { mutability: 'readOnly' }),
        str('type', 'A label indicating the membership type.', {
          mutability: 'readOnly',
          canonicalValues: ['direct', 'indirect'],
        }),
      ],
    }),
    multi(
      'entitlements',
      'A list of entitlements for the User.',
      multiValuedOf('string', 'The value of an entitlement.'),
    ),
    multi(
      'roles',
      'A list of roles for the User.',
      multiValuedOf('string', 'The value of a role.'),
    ),
    multi(
      'x509Certificates',
      'A list of certificates issued to the User.',
      multiValuedOf('binary', 'The value of an X.509 certificate.'),
    ),
    metaAttribute('User'),
  ],
});

/**
 * The RFC 7643 §4.3 Enterprise User extension.
 *
 * @see RFC 7643 §4.3
 */
export const enterpriseUserSchema = defineSchema({
  id: ENTERPRISE_USER_SCHEMA,
  name: 'EnterpriseUser',
  description: 'Enterprise User',
  attributes: [
    str('employeeNumber', 'Numeric or alphanumeric identifier assigned to a person.'),
    str('costCenter', 'Identifies the name of a cost center.'),
    str('organization', 'Identifies the name of an organization.'),
    str('division', 'Identifies the name of a division.'),
    str('department', 'Identifies the name of a department.'),
    attr('manager', 'complex', {
      description: "The User's manager.",
      subAttributes: [
        str('value', "The id of the SCIM resource representing the User's manager."),
        attr('$ref', 'reference', {
          description: "The URI of the manager's User resource.",
          referenceTypes: ['User'],
        }),
        str('displayName', "The displayName of the User's manager.", { mutability: 'readOnly' }),
      ],
    }),
  ],
});

/**
 * scimkit's account extension: the account lifecycle the service keeps for each user. Every
 * attribute is readOnly: clients see it, only the service changes it.
 */
export const accountSchema = defineSchema({
  id: ACCOUNT_SCHEMA,
  name: 'Account',
  description: 'scimkit account lifecycle',
  attributes: [
    str('status', 'The account status: Pending, Invited, Activated or Deactivated.', {
      mutability: 'readOnly',
      caseExact: true,
      canonicalValues: ['Pending', 'Invited', 'Activated', 'Deactivated'],
    }),
    attr('invitedAt', 'dateTime', {
      description: 'When the welcome email was first queued.',
      mutability: 'readOnly',
    }),
    attr('activatedAt', 'dateTime', {
      description: 'When the person first logged in.',
      mutability: 'readOnly',
    }),
  ],
});

/**
 * The account statuses (`Pending`, `Invited`, `Activated`, `Deactivated`; docs/lifecycle.md,
 * "Account status"), read from the account extension's `status`.
 */
export type AccountStatus = NonNullable<InferExtension<typeof accountSchema>['status']>;
