import { defineAttribute as attr } from '../../src/schema/define-attribute.js';
import { defineSchema } from '../../src/schema/define-schema.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { accountSchema, enterpriseUserSchema, userSchema } from '../../src/schema/user-schema.js';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../../src/schema/urns.js';

export { ENTERPRISE_USER_SCHEMA, USER_SCHEMA };
export const DISTRICT = 'urn:example:params:scim:schemas:extension:district:2.0:User';

/** A host extension with one attribute of every RFC 7643 type. */
export const districtSchema = defineSchema({
  id: DISTRICT,
  name: 'District',
  description: 'District student data',
  attributes: [
    attr('studentNumber', 'string', { mutability: 'immutable', caseExact: true }),
    attr('homeRoom', 'string', { mutability: 'immutable' }),
    attr('enrolledAt', 'dateTime'),
    attr('grade', 'integer'),
    attr('gpa', 'decimal'),
    attr('boarder', 'boolean'),
    attr('website', 'reference', { referenceTypes: ['external'] }),
    attr('badge', 'binary'),
    attr('tags', 'string', { multiValued: true, mutability: 'immutable' }),
    attr('guardian', 'complex', {
      subAttributes: [
        attr('name', 'string', { required: true }),
        attr('phone', 'string'),
        attr('since', 'dateTime', { mutability: 'immutable' }),
        attr('verified', 'boolean', { mutability: 'readOnly' }),
      ],
    }),
    attr('lockerCode', 'integer', { mutability: 'readOnly' }),
  ],
});

/** The schemas as createScim orders them: core, Enterprise, host extensions, account. */
export const schemas = [userSchema, enterpriseUserSchema, districtSchema, accountSchema];
/** The same schemas, compiled. */
export const resourceType = userResourceType({ extensions: [districtSchema] });

/** A minimal valid body plus `extra`. */
export const body = (extra: Record<string, unknown> = {}) => ({
  schemas: [USER_SCHEMA, DISTRICT],
  userName: 'ada@example.org',
  ...extra,
});
