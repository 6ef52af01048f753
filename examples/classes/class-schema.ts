// In an application: 'scimkit'.
import { defineAttribute as attr, defineSchema } from '../../src/index.js';

/** The URN of a district's Class schema. */
export const CLASS_SCHEMA = 'urn:example:params:scim:schemas:district:2.0:Class';

// A reference to a user of the same tenant: its id, its URL and a name to show.
const userReference = [
  attr('value', 'string', { description: 'The id of the user.', caseExact: true }),
  attr('$ref', 'reference', { description: 'The URL of the user.', referenceTypes: ['User'] }),
  attr('display', 'string', { description: "The user's name, for display." }),
] as const;

/**
 * A district's Class: a name, a code unique in the district, a term, its teacher and its
 * students (references to users of the same tenant). `id`, `externalId` and `meta` are added
 * by scimkit.
 */
export const classSchema = defineSchema({
  id: CLASS_SCHEMA,
  name: 'Class',
  description: 'A class taught in a school of the district',
  attributes: [
    attr('displayName', 'string', { description: 'The name of the class.', required: true }),
    attr('code', 'string', { description: 'The course code.', uniqueness: 'server' }),
    attr('term', 'string', { description: 'The school term, e.g. "2026-fall".' }),
    attr('teacher', 'complex', {
      description: 'The teacher of the class.',
      subAttributes: userReference,
    }),
    attr('students', 'complex', {
      description: 'The students of the class.',
      multiValued: true,
      subAttributes: userReference,
    }),
  ],
});
