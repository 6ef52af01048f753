import type { SortOrder } from '../contracts/user-store.js';
import type { ScimType } from '../errors/index.js';
import type { PatchOpName } from '../patch/types.js';
import type { AttributeType, Mutability, Returned, Uniqueness } from '../schema/types.js';
import { everyMember } from './every-member.js';
import type { JsonSchema } from './types.js';
import {
  ERROR_SCHEMA,
  LIST_RESPONSE_SCHEMA,
  PATCH_OP_SCHEMA,
  RESOURCE_TYPE_SCHEMA,
  SCHEMA_SCHEMA,
  SEARCH_REQUEST_SCHEMA,
  SPC_SCHEMA,
} from '../schema/urns.js';

/** The RFC 7644 §3.12 `scimType` values, and those RFC 9865 §2.1 adds. */
export const SCIM_TYPES = everyMember<ScimType>()([
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
  'invalidVers',
  'sensitive',
  'invalidCursor',
  'expiredCursor',
  'invalidCount',
]);

/** The sort orders `sortOrder` takes. */
export const SORT_ORDERS = everyMember<SortOrder>()(['ascending', 'descending']);

const PATCH_OPS = everyMember<PatchOpName>()(['add', 'remove', 'replace']);

const messageSchemas = (urn: string): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  contains: { const: urn },
  description: `Contains "${urn}".`,
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The RFC 7644 §3.12 error body. */
export const errorSchema: JsonSchema = {
  type: 'object',
  description: 'A SCIM error (RFC 7644 §3.12).',
  properties: {
    schemas: messageSchemas(ERROR_SCHEMA),
    status: { type: 'string', pattern: '^[1-5][0-9][0-9]$', description: 'The HTTP status.' },
    scimType: { type: 'string', enum: [...SCIM_TYPES], description: 'The kind of 400 or 409.' },
    detail: { type: 'string', description: 'What went wrong, for a human to act on.' },
  },
  required: ['schemas', 'status', 'detail'],
};

/**
 * The RFC 7644 §3.4.2 ListResponse whose `Resources` are of one kind.
 *
 * @param item - the schema of one resource.
 * @param what - the resource type's name, for the description.
 */
export function listResponseSchema(item: JsonSchema, what: string): JsonSchema {
  return {
    type: 'object',
    description: `A page of ${what} resources (RFC 7644 §3.4.2). Resources is always present.`,
    properties: {
      schemas: messageSchemas(LIST_RESPONSE_SCHEMA),
      totalResults: { type: 'integer', minimum: 0, description: 'Every match, on all pages.' },
      itemsPerPage: { type: 'integer', minimum: 0, description: 'The resources on this page.' },
      startIndex: {
        type: 'integer',
        minimum: 1,
        description: 'The 1-based index of the first (index paging only).',
      },
      nextCursor: {
        type: 'string',
        description: 'The cursor of the next page (RFC 9865); absent on the last page.',
      },
      previousCursor: {
        type: 'string',
        description: 'The cursor of the previous page (RFC 9865); absent on the first page.',
      },
      Resources: { type: 'array', items: item },
    },
    required: ['schemas', 'totalResults', 'itemsPerPage', 'Resources'],
  };
}

/** The RFC 7644 §3.5.2 PatchOp message. */
export const patchOpSchema: JsonSchema = {
  type: 'object',
  description:
    'A PatchOp message (RFC 7644 §3.5.2): every operation applies, or none. The IdP dialects ' +
    'scimkit normalises (op in any case, "True"/"False" strings, ...) are accepted too.',
  properties: {
    schemas: messageSchemas(PATCH_OP_SCHEMA),
    Operations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: [...PATCH_OPS] },
          path: {
            type: 'string',
            description: 'An attribute path, such as `emails[type eq "work"].value`.',
          },
          value: { description: 'The value to add or replace with; optional for remove.' },
        },
        required: ['op'],
      },
    },
  },
  required: ['schemas', 'Operations'],
};

const attributeNames = {
  type: 'array',
  items: { type: 'string' },
  description: 'Attribute names or paths.',
};

/** The RFC 7644 §3.4.3 SearchRequest message of `POST /{endpoint}/.search`. */
export const searchRequestSchema: JsonSchema = {
  type: 'object',
  description: 'The query of a list request, sent as a body (RFC 7644 §3.4.3).',
  properties: {
    schemas: messageSchemas(SEARCH_REQUEST_SCHEMA),
    attributes: attributeNames,
    excludedAttributes: attributeNames,
    filter: { type: 'string', description: 'A filter expression (RFC 7644 §3.4.2.2).' },
    sortBy: { type: 'string' },
    sortOrder: { type: 'string', enum: [...SORT_ORDERS] },
    startIndex: { type: 'integer' },
    count: { type: 'integer' },
    cursor: { type: 'string', description: 'RFC 9865: "" for the first page, then nextCursor.' },
  },
  required: ['schemas'],
};

const supported = {
  type: 'object',
  properties: { supported: { type: 'boolean' } },
  required: ['supported'],
};
const meta = {
  type: 'object',
  readOnly: true,
  properties: { resourceType: { type: 'string' }, location: { type: 'string' } },
};

/** The RFC 7643 §5 ServiceProviderConfig resource. */
export const serviceProviderConfigSchema: JsonSchema = {
  type: 'object',
  description: 'What the service supports (RFC 7643 §5).',
  properties: {
    schemas: messageSchemas(SPC_SCHEMA),
    documentationUri: { type: 'string' },
    patch: supported,
    bulk: {
      type: 'object',
      properties: {
        supported: { type: 'boolean' },
        maxOperations: { type: 'integer' },
        maxPayloadSize: { type: 'integer' },
      },
      required: ['supported'],
    },
    filter: {
      type: 'object',
      properties: { supported: { type: 'boolean' }, maxResults: { type: 'integer' } },
      required: ['supported'],
    },
    changePassword: supported,
    sort: supported,
    etag: supported,
    pagination: {
      type: 'object',
      description: 'Index and cursor paging (RFC 9865 §4).',
      properties: {
        cursor: { type: 'boolean' },
        index: { type: 'boolean' },
        defaultPaginationMethod: { type: 'string', enum: ['index', 'cursor'] },
        defaultPageSize: { type: 'integer' },
        maxPageSize: { type: 'integer' },
        cursorTimeout: { type: 'integer' },
      },
      required: ['cursor', 'index'],
    },
    authenticationSchemes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          type: { type: 'string' },
          name: { type: 'string' },
          description: { type: 'string' },
          specUri: { type: 'string' },
          documentationUri: { type: 'string' },
          primary: { type: 'boolean' },
        },
        required: ['type', 'name', 'description'],
      },
    },
    meta,
  },
  required: ['schemas', 'patch', 'bulk', 'filter', 'changePassword', 'sort', 'etag'],
};

/** The RFC 7643 §6 ResourceType resource. */
export const resourceTypeSchema: JsonSchema = {
  type: 'object',
  description: 'A resource type the service serves (RFC 7643 §6).',
  properties: {
    schemas: messageSchemas(RESOURCE_TYPE_SCHEMA),
    id: { type: 'string' },
    name: { type: 'string' },
    endpoint: { type: 'string' },
    description: { type: 'string' },
    schema: { type: 'string', description: 'The URN of its core schema.' },
    schemaExtensions: {
      type: 'array',
      items: {
        type: 'object',
        properties: { schema: { type: 'string' }, required: { type: 'boolean' } },
        required: ['schema', 'required'],
      },
    },
    meta,
  },
  required: ['schemas', 'name', 'endpoint', 'schema'],
};

/** The RFC 7643 §7 attribute definition, as `/Schemas` lists it; sub-attributes recurse. */
export const schemaAttributeSchema: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    type: {
      type: 'string',
      enum: everyMember<AttributeType>()([
        'string',
        'boolean',
        'decimal',
        'integer',
        'dateTime',
        'binary',
        'reference',
        'complex',
      ]),
    },
    multiValued: { type: 'boolean' },
    description: { type: 'string' },
    required: { type: 'boolean' },
    caseExact: { type: 'boolean' },
    mutability: {
      type: 'string',
      enum: everyMember<Mutability>()(['readOnly', 'readWrite', 'immutable', 'writeOnly']),
    },
    returned: {
      type: 'string',
      enum: everyMember<Returned>()(['always', 'never', 'default', 'request']),
    },
    uniqueness: { type: 'string', enum: everyMember<Uniqueness>()(['none', 'server', 'global']) },
    canonicalValues: { type: 'array', items: { type: 'string' } },
    referenceTypes: { type: 'array', items: { type: 'string' } },
    subAttributes: { type: 'array', items: ref('SchemaAttribute') },
  },
  required: ['name', 'type', 'multiValued'],
};

/** The RFC 7643 §7 Schema resource served at `/Schemas/{id}`. */
export const schemaResourceSchema: JsonSchema = {
  type: 'object',
  description: 'A schema the service uses (RFC 7643 §7).',
  properties: {
    schemas: messageSchemas(SCHEMA_SCHEMA),
    id: { type: 'string', description: 'The schema URN.' },
    name: { type: 'string' },
    description: { type: 'string' },
    attributes: { type: 'array', items: ref('SchemaAttribute') },
    meta,
  },
  required: ['schemas', 'id', 'attributes'],
};
