import { defineAttribute as attr } from './define-attribute.js';

// The common attributes of every resource (RFC 7643 §3.1), written once: the User, the Group
// and a host's resource types list them from here.

/** `id`: the service provider's identifier of a resource (RFC 7643 §3.1). */
export const idAttribute = attr('id', 'string', {
  description: 'Unique identifier for the SCIM resource as defined by the service provider.',
  caseExact: true,
  mutability: 'readOnly',
  returned: 'always',
  uniqueness: 'server',
});

/** `externalId`: the provisioning client's identifier of a resource (RFC 7643 §3.1). */
export const externalIdAttribute = attr('externalId', 'string', {
  description: 'An identifier for the resource as defined by the provisioning client.',
  caseExact: true,
});

/**
 * `meta` of a resource of type `resourceType` (RFC 7643 §3.1): `resourceType`, `created`,
 * `lastModified`, `location` and `version`, all readOnly.
 */
export function metaAttribute<const R extends string>(resourceType: R) {
  return attr('meta', 'complex', {
    description: 'Resource metadata.',
    mutability: 'readOnly',
    subAttributes: [
      attr('resourceType', 'string', {
        description: 'The name of the resource type.',
        mutability: 'readOnly',
        caseExact: true,
        canonicalValues: [resourceType],
      }),
      attr('created', 'dateTime', {
        description: 'When the resource was added.',
        mutability: 'readOnly',
      }),
      attr('lastModified', 'dateTime', {
        description: 'When the resource was last updated.',
        mutability: 'readOnly',
      }),
      attr('location', 'reference', {
        description: 'The URI of the resource.',
        mutability: 'readOnly',
        caseExact: true,
        referenceTypes: ['uri'],
      }),
      attr('version', 'string', {
        description: 'The version (weak ETag) of the resource.',
        mutability: 'readOnly',
        caseExact: true,
      }),
    ],
  });
}
