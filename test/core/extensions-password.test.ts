import { describe, expect, it } from 'vitest';
import {
  createScim,
  defineAttribute,
  staticApiKeys,
  type SchemaDefinition,
} from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { USER_SCHEMA, patchBody, setup } from './harness.js';

const DISTRICT = 'urn:example:district:2.0:User';
const district: SchemaDefinition = {
  id: DISTRICT,
  name: 'DistrictUser',
  description: 'What the district keeps about a person',
  attributes: [
    defineAttribute('studentNumber', 'string', {
      caseExact: true,
      description: 'The student number.',
    }),
    defineAttribute('gradeLevel', 'integer', { description: 'The grade level.' }),
  ],
};

describe('custom extension schemas registered by the host', () => {
  const ctx = () => setup({ extensions: [district] });

  it('are validated, stored, returned and listed in schemas', async () => {
    const { request } = ctx();
    const created = await request('POST', '/Users', {
      body: {
        schemas: [USER_SCHEMA, DISTRICT],
        userName: 'kid@example.org',
        [DISTRICT]: { studentNumber: 'S-1', gradeLevel: 4 },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body[DISTRICT]).toEqual({ studentNumber: 'S-1', gradeLevel: 4 });
    expect(created.body.schemas).toContain(DISTRICT);
    const wrong = await request('POST', '/Users', {
      body: {
        schemas: [USER_SCHEMA, DISTRICT],
        userName: 'kid2@example.org',
        [DISTRICT]: { gradeLevel: 'four' },
      },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.scimType).toBe('invalidValue');
  });

  it('are filterable and patchable', async () => {
    const { request, createUser } = ctx();
    const user = await createUser('kid@example.org', {
      schemas: [USER_SCHEMA, DISTRICT],
      [DISTRICT]: { studentNumber: 'S-1' },
    });
    await createUser('other@example.org', {
      schemas: [USER_SCHEMA, DISTRICT],
      [DISTRICT]: { studentNumber: 'S-2' },
    });
    const found = await request('GET', '/Users', {
      query: `filter=${encodeURIComponent(`${DISTRICT}:studentNumber eq "S-1"`)}`,
    });
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(user.id);
    const patched = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: `${DISTRICT}:gradeLevel`, value: 5 }),
    });
    expect(patched.status).toBe(200);
    expect(patched.body[DISTRICT]).toEqual({ studentNumber: 'S-1', gradeLevel: 5 });
  });

  it('are advertised at /Schemas and /ResourceTypes', async () => {
    const { request } = ctx();
    const schema = await request('GET', `/Schemas/${DISTRICT}`);
    expect(schema.body.attributes.map((a: { name: string }) => a.name)).toEqual([
      'studentNumber',
      'gradeLevel',
    ]);
    const type = await request('GET', '/ResourceTypes/User');
    expect(type.body.schemaExtensions).toContainEqual({ schema: DISTRICT, required: false });
  });

  it('a bad extension is refused at start', () => {
    const base = {
      store: new MemoryUserStore(),
      verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
      mailer: { sendWelcome: async () => undefined },
    };
    expect(() => createScim({ ...base, extensions: [{ ...district, id: 'not-a-urn' }] })).toThrow(
      /URN/,
    );
    expect(() => createScim({ ...base, extensions: [district, district] })).toThrow(/twice/);
  });
});

describe('password', () => {
  it('is handed to onPassword on POST, PUT and PATCH, and never stored or returned', async () => {
    const seen: string[] = [];
    const { request, store } = setup({
      onPassword: (_tenant, _id, password) => void seen.push(password),
    });
    const created = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', password: 'p1' },
    });
    const id = created.body.id as string;
    await request('PUT', `/Users/${id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', password: 'p2' },
    });
    const patched = await request('PATCH', `/Users/${id}`, {
      body: patchBody({ op: 'replace', path: 'password', value: 'p3' }),
    });
    expect(patched.status).toBe(200);
    expect(seen).toEqual(['p1', 'p2', 'p3']);
    const stored = JSON.stringify(store.peek('tenant-a', id));
    for (const p of ['p1', 'p2', 'p3']) {
      expect(stored).not.toContain(`"${p}"`);
      expect(JSON.stringify(patched.body)).not.toContain(`"${p}"`);
    }
  });
});

describe('full IdP payloads', () => {
  it('accepts a POST with every core and Enterprise attribute as Okta and Entra ID send them', async () => {
    const { request } = setup();
    const body = {
      schemas: [USER_SCHEMA, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '00u1ab2cd3EF4gh5i6j7',
      userName: 'Barbara.Jensen@example.com',
      name: {
        formatted: 'Ms. Barbara J Jensen III',
        familyName: 'Jensen',
        givenName: 'Barbara',
        middleName: 'Jane',
        honorificPrefix: 'Ms.',
        honorificSuffix: 'III',
      },
      displayName: 'Babs Jensen',
      nickName: 'Babs',
      profileUrl: 'https://login.example.com/bjensen',
      title: 'Tour Guide',
      userType: 'Employee',
      preferredLanguage: 'en-US',
      locale: 'en-US',
      timezone: 'America/Los_Angeles',
      active: 'True',
      password: 't1meMa$heen',
      emails: [
        { value: 'bjensen@example.com', type: 'work', primary: true },
        { value: 'babs@jensen.org', type: 'home' },
      ],
      phoneNumbers: [
        { value: '555-555-5555', type: 'work' },
        { value: null, type: 'mobile' },
      ],
      ims: [{ value: 'someaimhandle', type: 'aim' }],
      photos: [
        { value: 'https://photos.example.com/profilephoto/72930000000Ccne/F', type: 'photo' },
      ],
      addresses: [
        {
          type: 'work',
          streetAddress: '100 Universal City Plaza',
          locality: 'Hollywood',
          region: 'CA',
          postalCode: '91608',
          country: 'USA',
          formatted: '100 Universal City Plaza\nHollywood, CA 91608 USA',
          primary: true,
        },
      ],
      groups: [],
      entitlements: [],
      roles: [
        {
          value: 'teacher',
          display: 'Teacher',
          type: 'WindowsAzureActiveDirectoryRole',
          primary: 'False',
        },
      ],
      x509Certificates: null,
      meta: { resourceType: 'User' },
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': {
        employeeNumber: '701984',
        costCenter: '4130',
        organization: 'Universal Studios',
        division: 'Theme Park',
        department: 'Tour Operations',
        manager: { value: '26118915-6090-4610-87e4-49d8ca9f808d', displayName: 'John Smith' },
      },
    };
    const reply = await request('POST', '/Users', { body });
    expect(reply.status).toBe(201);
    const user = reply.body;
    expect(user.active).toBe(true);
    expect(user.roles).toEqual([
      {
        value: 'teacher',
        display: 'Teacher',
        type: 'WindowsAzureActiveDirectoryRole',
        primary: false,
      },
    ]);
    expect(user.phoneNumbers).toEqual([
      { value: '555-555-5555', type: 'work' },
      { type: 'mobile' },
    ]);
    expect(user).not.toHaveProperty('groups');
    expect(user).not.toHaveProperty('entitlements');
    expect(user).not.toHaveProperty('x509Certificates');
    expect(user).not.toHaveProperty('password');
    expect(user['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'].manager).toEqual({
      value: '26118915-6090-4610-87e4-49d8ca9f808d',
    });
    expect(user.addresses[0].locality).toBe('Hollywood');
  });
});
