import { defineAttribute, defineSchema } from '../../src/index.js';

/** A host's extension, as docs/users.md shows one. */
export const districtSchema = defineSchema({
  id: 'urn:example:params:scim:schemas:extension:district:2.0:User',
  name: 'District',
  description: 'District student data',
  attributes: [
    defineAttribute('studentNumber', 'string', { required: true, mutability: 'immutable' }),
    defineAttribute('grade', 'integer'),
    defineAttribute('guardians', 'complex', {
      multiValued: true,
      subAttributes: [defineAttribute('name', 'string'), defineAttribute('phone', 'string')],
    }),
  ],
});
