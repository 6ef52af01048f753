import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAttribute, ScimConfigError, type SchemaDefinition } from '../../src/index.js';
import { scimOpenApi } from '../../src/openapi/index.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { patchBody, setup } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const SCHOOL = 'urn:example:district:2.0:Group';
const school: SchemaDefinition = {
  id: SCHOOL,
  name: 'DistrictGroup',
  description: 'What the district keeps about a group',
  attributes: [
    defineAttribute('schoolCode', 'string', { caseExact: true, description: 'The school.' }),
    defineAttribute('gradeLevel', 'integer', { description: 'The grade level.' }),
  ],
};

describe.each(everyStore)('Group extensions over HTTP, $name store', ({ open }) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  }, 120_000);
  afterAll(async () => opened?.close());
  const on = () => setup({ store: opened.store, groupExtensions: [school] });

  it('POST, GET, PUT and PATCH keep, validate and list the extension', async () => {
    const { request } = on();
    const created = await request('POST', '/Groups', {
      body: {
        schemas: [GROUP_SCHEMA, SCHOOL],
        displayName: 'Grade 4 at Lincoln',
        [SCHOOL]: { schoolCode: 'LIN', gradeLevel: 4 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.schemas).toEqual([GROUP_SCHEMA, SCHOOL]);
    expect(created.body[SCHOOL]).toEqual({ schoolCode: 'LIN', gradeLevel: 4 });
    const id = created.body.id as string;
    expect((await request('GET', `/Groups/${id}`)).body[SCHOOL]).toEqual({
      schoolCode: 'LIN',
      gradeLevel: 4,
    });

    const wrongType = await request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA, SCHOOL], displayName: 'x', [SCHOOL]: { gradeLevel: 'four' } },
    });
    expect(wrongType.status).toBe(400);

    const patched = await request('PATCH', `/Groups/${id}`, {
      body: patchBody({ op: 'replace', path: `${SCHOOL}:gradeLevel`, value: 5 }),
    });
    expect(patched.status).toBe(204);
    expect(patched.headers.etag).toBe('W/"2"');
    expect((await request('GET', `/Groups/${id}`)).body[SCHOOL]).toEqual({
      schoolCode: 'LIN',
      gradeLevel: 5,
    });

    const put = await request('PUT', `/Groups/${id}`, {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Grade 5 at Lincoln' },
    });
    expect(put.status).toBe(200);
    expect(put.body[SCHOOL]).toBeUndefined();
    expect(put.body.schemas).toEqual([GROUP_SCHEMA]);
    const got = await request('GET', `/Groups/${id}`);
    expect(got.body[SCHOOL]).toBeUndefined();
    expect(got.body.schemas).toEqual([GROUP_SCHEMA]);

    const added = await request('PATCH', `/Groups/${id}`, {
      body: patchBody({ op: 'add', path: `${SCHOOL}:schoolCode`, value: 'WAS' }),
    });
    expect(added.status).toBe(204);
    const after = await request('GET', `/Groups/${id}`);
    expect(after.body.schemas).toEqual([GROUP_SCHEMA, SCHOOL]);
    expect(after.body[SCHOOL]).toEqual({ schoolCode: 'WAS' });
    const refused = await request('PATCH', `/Groups/${id}`, {
      body: patchBody({ op: 'replace', path: `${SCHOOL}:gradeLevel`, value: 'five' }),
    });
    expect(refused.status).toBe(400);
  });

  it('filters, sorts and projects on the extension', async () => {
    const { request } = on();
    const make = async (displayName: string, schoolCode: string, gradeLevel: number) =>
      (
        await request('POST', '/Groups', {
          body: {
            schemas: [GROUP_SCHEMA, SCHOOL],
            displayName,
            [SCHOOL]: { schoolCode, gradeLevel },
          },
        })
      ).body.id as string;
    const a = await make('Filter A', 'FLT', 2);
    const b = await make('Filter B', 'FLT', 1);
    await make('Filter C', 'flt', 3);
    const list = await request('GET', '/Groups', {
      query: `filter=${encodeURIComponent(`${SCHOOL}:schoolCode eq "FLT"`)}&sortBy=${encodeURIComponent(`${SCHOOL}:gradeLevel`)}&attributes=${encodeURIComponent(`${SCHOOL}:gradeLevel`)}`,
    });
    expect(list.status).toBe(200);
    expect(list.body.totalResults).toBe(2);
    expect(list.body.Resources).toEqual([
      { schemas: [GROUP_SCHEMA, SCHOOL], id: b, [SCHOOL]: { gradeLevel: 1 } },
      { schemas: [GROUP_SCHEMA, SCHOOL], id: a, [SCHOOL]: { gradeLevel: 2 } },
    ]);
    const search = await request('POST', '/Groups/.search', {
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: `${SCHOOL}:gradeLevel gt 2 and displayName sw "Filter"`,
        excludedAttributes: [SCHOOL],
      },
    });
    expect(search.body.Resources.map((g: { displayName: string }) => g.displayName)).toEqual([
      'Filter C',
    ]);
    expect(search.body.Resources[0][SCHOOL]).toBeUndefined();
  });
});

describe('Group extensions in discovery and at start', () => {
  it('/ResourceTypes/Group lists the extension and /Schemas serves it', async () => {
    const { request } = setup({ groupExtensions: [school] });
    const type = await request('GET', '/ResourceTypes/Group');
    expect(type.body.schemaExtensions).toEqual([{ schema: SCHOOL, required: false }]);
    const served = await request('GET', `/Schemas/${SCHOOL}`);
    expect(served.status).toBe(200);
    expect(served.body.attributes.map((a: { name: string }) => a.name)).toEqual([
      'schoolCode',
      'gradeLevel',
    ]);
    const user = await request('GET', '/ResourceTypes/User');
    expect(JSON.stringify(user.body)).not.toContain(SCHOOL);
  });

  it('the OpenAPI document describes the extension on the Group', () => {
    // The options given to createScim: Group is described when the store keeps groups.
    const options = { store: new MemoryUserStore(), groupExtensions: [school] };
    const doc = scimOpenApi(options);
    expect(doc.components.schemas.DistrictGroup).toBeDefined();
    expect(JSON.stringify(doc.components.schemas.Group)).toContain(SCHOOL);
  });

  it('refuses a Group extension as a User extension is refused', () => {
    const store = new MemoryUserStore();
    expect(() => setup({ store, groupExtensions: [{ ...school, id: 'district:Group' }] })).toThrow(
      ScimConfigError,
    );
    expect(() => setup({ store, groupExtensions: [{ ...school, id: GROUP_SCHEMA }] })).toThrow(
      /defined twice/,
    );
    expect(() => setup({ store, extensions: [school], groupExtensions: [school] })).toThrow(
      /defined twice/,
    );
    const badName = { ...school, attributes: [defineAttribute('no spaces', 'string')] };
    expect(() => setup({ store, groupExtensions: [badName] })).toThrow(/attribute name/);
    const clash = {
      name: 'Room',
      endpoint: '/Rooms',
      schema: school,
      store: new MemoryResourceStore(),
    };
    expect(() => setup({ store, groupExtensions: [school], resourceTypes: [clash] })).toThrow(
      /defined twice/,
    );
  });
});
