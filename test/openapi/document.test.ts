import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_SCHEMA,
  ENTERPRISE_USER_SCHEMA,
  ScimConfigError,
  USER_SCHEMA,
  createScim,
  staticApiKeys,
  type ScimOptions,
  defineAttribute,
  defineSchema,
  userSchema,
} from '../../src/index.js';
import { openApiDocument, scimOpenApi, type OpenApiDocument } from '../../src/openapi/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { districtSchema } from './fixtures.js';

async function validate(document: unknown) {
  // The validator may annotate what it is given: hand it a copy.
  return new Validator().validate(structuredClone(document) as never);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const schemaOf = (doc: OpenApiDocument, name: string): any => doc.components.schemas[name];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document, with and without a base path, server and extensions', async () => {
    for (const document of [
      scimOpenApi(),
      scimOpenApi({ basePath: '/api/v1/scim/v2', serverUrl: 'https://scim.example.org/' }),
      scimOpenApi({ extensions: [districtSchema], maxPageSize: 20, defaultPageSize: 10 }),
    ]) {
      expect(await validate(document)).toEqual({ valid: true });
    }
  });

  it('is refused by the validator when broken (the validator really checks)', async () => {
    const document = structuredClone(scimOpenApi()) as unknown as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    document.paths['/Users'].post.responses = 'none';
    expect((await validate(document)).valid).toBe(false);
  });

  it('names its server from serverUrl (or publicBaseUrl) and the base path', () => {
    expect(scimOpenApi().servers).toBeUndefined();
    expect(scimOpenApi({ basePath: '/scim' }).servers).toEqual([{ url: '/scim' }]);
    expect(scimOpenApi({ basePath: '/scim', publicBaseUrl: 'https://a.example/' }).servers).toEqual(
      [{ url: 'https://a.example/scim' }],
    );
    expect(scimOpenApi({ serverUrl: 'https://b.example', publicBaseUrl: 'x' }).servers).toEqual([
      { url: 'https://b.example' },
    ]);
  });

  it('derives the User body from the SCIM attribute definitions', () => {
    const doc = scimOpenApi();
    const user = schemaOf(doc, 'User');
    expect(user.required).toEqual(['schemas', 'userName']);
    expect(user.properties.schemas.items.enum).toEqual([
      USER_SCHEMA,
      ENTERPRISE_USER_SCHEMA,
      ACCOUNT_SCHEMA,
    ]);
    // readOnly and writeOnly from mutability
    expect(user.properties.id).toMatchObject({ type: 'string', readOnly: true });
    expect(user.properties.meta).toMatchObject({ type: 'object', readOnly: true });
    expect(user.properties.password).toMatchObject({ type: 'string', writeOnly: true });
    expect(user.properties.userName.readOnly).toBeUndefined();
    // types
    expect(user.properties.active).toMatchObject({ type: 'boolean' });
    expect(user.properties.meta.properties.created).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
    expect(user.properties.x509Certificates.items.properties.value).toMatchObject({
      type: 'string',
      contentEncoding: 'base64',
    });
    // multi-valued complex: an array of objects of the sub-attributes
    expect(user.properties.emails).toMatchObject({
      type: 'array',
      items: { type: 'object', properties: { value: { type: 'string' } } },
    });
    // open canonical values are described, closed (readOnly) ones enumerated
    const emailType = user.properties.emails.items.properties.type;
    expect(emailType.enum).toBeUndefined();
    expect(emailType.description).toMatch(/work, home, other/);
    expect(user.properties.groups.items.properties.type.enum).toEqual(['direct', 'indirect']);
    // `$ref` sub-attributes are described by an exact pattern, not a `$ref` key
    expect(user.properties.groups.items.properties.$ref).toBeUndefined();
    expect(user.properties.groups.items.patternProperties['^\\$ref$']).toMatchObject({
      type: 'string',
      readOnly: true,
    });
    const account = schemaOf(doc, 'Account');
    expect(user.properties[ACCOUNT_SCHEMA]).toEqual({ $ref: '#/components/schemas/Account' });
    expect(account.properties.status).toMatchObject({
      enum: ['Pending', 'Invited', 'Activated', 'Deactivated'],
      readOnly: true,
    });
  });

  it('shows the host extensions in the schemas', () => {
    const doc = scimOpenApi({ extensions: [districtSchema] });
    const user = schemaOf(doc, 'User');
    expect(user.properties.schemas.items.enum).toContain(districtSchema.id);
    expect(user.properties[districtSchema.id]).toEqual({ $ref: '#/components/schemas/District' });
    const district = schemaOf(doc, 'District');
    expect(district.required).toEqual(['studentNumber']);
    expect(district.properties.studentNumber.description).toMatch(/Immutable/);
    expect(district.properties.grade).toEqual({ type: 'integer' });
    expect(district.properties.guardians.items.properties.phone).toEqual({ type: 'string' });
    expect(scimOpenApi().components.schemas.District).toBeUndefined();
  });

  it('takes the very options object createScim takes', () => {
    const options: ScimOptions = {
      store: new MemoryUserStore(),
      verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
      mailer: { sendWelcome: async () => undefined },
      basePath: '/scim/v2',
      publicBaseUrl: 'https://scim.example.org',
      extensions: [districtSchema],
    };
    createScim(options);
    const doc = scimOpenApi(options);
    expect(doc.servers).toEqual([{ url: 'https://scim.example.org/scim/v2' }]);
    expect(doc.components.schemas.District).toBeDefined();
  });

  it('refuses what createScim refuses: an extension without a urn: id', () => {
    expect(() => scimOpenApi({ extensions: [{ ...districtSchema, id: 'district' }] })).toThrow(
      ScimConfigError,
    );
  });

  it('describes each resource type given, with names that do not collide', () => {
    const group = defineSchema({
      id: 'urn:ietf:params:scim:schemas:core:2.0:Group',
      name: 'Group',
      description: 'Group',
      attributes: [defineAttribute('displayName', 'string', { required: true })],
    });
    const clash = defineSchema({ ...group, id: 'urn:x:Error', name: 'Error' });
    const doc = openApiDocument({
      resourceTypes: [
        { name: 'User', endpoint: '/Users', schemas: [userSchema] },
        { name: 'Group', endpoint: '/Groups', schemas: [group, clash] },
      ],
    });
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/Groups', '/Groups/{id}', '/Groups/.search', '/Users']),
    );
    expect(schemaOf(doc, 'Group').required).toEqual(['schemas', 'displayName']);
    expect(schemaOf(doc, 'Group').properties['urn:x:Error']).toEqual({
      $ref: '#/components/schemas/Error2',
    });
    expect(schemaOf(doc, 'Error').properties.scimType.enum).toContain('uniqueness');
    expect(doc.info.description).not.toMatch(/\/Groups/);
    expect(() =>
      openApiDocument({
        resourceTypes: [
          { name: 'User', endpoint: '/Users', schemas: [userSchema] },
          { name: 'Other', endpoint: '/users', schemas: [userSchema] },
        ],
      }),
    ).toThrow(ScimConfigError);
    expect(() =>
      openApiDocument({ resourceTypes: [{ name: 'X', endpoint: 'X/Y', schemas: [userSchema] }] }),
    ).toThrow(ScimConfigError);
    expect(() =>
      openApiDocument({ resourceTypes: [{ name: 'X', endpoint: '/X', schemas: [] }] }),
    ).toThrow(ScimConfigError);
  });

  it('declares every list parameter, the ETag preconditions and bearer security', () => {
    const doc = scimOpenApi({ maxPageSize: 20 });
    const names = (refs: unknown) =>
      (refs as { $ref: string }[]).map(
        (r) => (doc.components.parameters[r.$ref.split('/').pop() ?? ''] as { name: string }).name,
      );
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const users = doc.paths['/Users'] as any;
    expect(names(users.get.parameters)).toEqual([
      'filter',
      'startIndex',
      'cursor',
      'count',
      'sortBy',
      'sortOrder',
      'attributes',
      'excludedAttributes',
    ]);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const item = doc.paths['/Users/{id}'] as any;
    expect(names(item.get.parameters)).toContain('If-None-Match');
    for (const method of ['put', 'patch', 'delete']) {
      expect(names(item[method].parameters)).toContain('If-Match');
    }
    expect(item.get.responses[200].headers.ETag).toEqual({ $ref: '#/components/headers/ETag' });
    expect(Object.keys(users.post.responses[201].headers)).toEqual(['ETag', 'Location']);
    expect(item.put.requestBody.content).toHaveProperty(['application/scim+json']);
    expect(item.put.requestBody.content).toHaveProperty(['application/json']);
    expect(item.patch.requestBody.content['application/scim+json'].schema).toEqual({
      $ref: '#/components/schemas/PatchOp',
    });
    expect(doc.components.parameters.count?.description).toMatch(/At most 20/);
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // every error a write can answer, as a SCIM error
    expect(Object.keys(item.patch.responses).sort()).toEqual(
      [
        ...['200', '204', '400', '401', '403', '404', '408', '409', '412', '413', '415', '429'],
        ...['500', '503'],
      ].sort(),
    );
    expect(doc.components.responses.Unauthorized).toMatchObject({
      content: { 'application/scim+json': { schema: { $ref: '#/components/schemas/Error' } } },
      headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
    });
  });

  it('is plain data: the same document every time, and JSON round-trips', () => {
    const a = scimOpenApi({ extensions: [districtSchema] });
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect(scimOpenApi({ extensions: [districtSchema] })).toEqual(a);
  });
});
