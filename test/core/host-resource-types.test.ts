// The host's own resource types: what createScim refuses at start, and what the harness's
// service (a memory store, no adapter) answers for a minimal type without common attributes.
import { describe, expect, it } from 'vitest';
import {
  ScimConfigError,
  defineAttribute,
  defineSchema,
  staticApiKeys,
  type HostResourceType,
  type ScimEvent,
} from '../../src/index.js';
import { scimOpenApi } from '../../src/openapi/index.js';
import { MemoryResourceStore } from '../../src/stores/memory/index.js';
import { patchBody, setup } from './harness.js';

const ROOM = 'urn:example:params:scim:schemas:district:2.0:Room';
const roomSchema = defineSchema({
  id: ROOM,
  name: 'Room',
  description: 'A room',
  attributes: [
    defineAttribute('displayName', 'string', { required: true }),
    defineAttribute('number', 'integer', { uniqueness: 'server' }),
    defineAttribute('building', 'string', { mutability: 'immutable' }),
  ],
});

const room = (extra: Partial<HostResourceType> = {}): HostResourceType => ({
  name: 'Room',
  endpoint: '/Rooms',
  schema: roomSchema,
  store: new MemoryResourceStore(),
  ...extra,
});

describe('createScim refuses a bad resource type of the host at start', () => {
  const cases: [string, HostResourceType[], RegExp][] = [
    ['an RFC 7644 endpoint', [room({ endpoint: '/Users' })], /endpoint "\/Users" is served/],
    ['/Bulk in another case', [room({ endpoint: '/bulk' })], /is served already/],
    ['a built-in name', [room({ name: 'group' })], /served already/],
    ['a name twice', [room(), room({ endpoint: '/Rooms2' })], /served already/],
    ['an endpoint twice', [room(), room({ name: 'Room2' })], /endpoint "\/Rooms" is served/],
    ['an endpoint without a slash', [room({ endpoint: 'Rooms' })], /must be "\/" and a name/],
    ['a nested endpoint', [room({ endpoint: '/a/b' })], /must be "\/" and a name/],
    [
      'a schema id without urn:',
      [room({ schema: { ...roomSchema, id: 'Room' } })],
      /must be a URN/,
    ],
    [
      'the User schema',
      [room({ schema: { ...roomSchema, id: 'urn:ietf:params:scim:schemas:core:2.0:User' } })],
      /defined twice/,
    ],
    [
      'a store without list()',
      [room({ store: Object.assign(new MemoryResourceStore(), { list: undefined }) as never })],
      /missing store\.list\(\)\./,
    ],
  ];
  it.each(cases)('%s', (_, resourceTypes, message) => {
    expect(() => setup({ resourceTypes })).toThrow(ScimConfigError);
    expect(() => setup({ resourceTypes })).toThrow(message);
  });
});

describe('a minimal host resource type', () => {
  it('gets the common attributes, ids, versions, immutability and unique keys', async () => {
    const events: ScimEvent[] = [];
    const { request } = setup({ resourceTypes: [room()], onEvent: (e) => events.push(e) });
    const created = await request('POST', '/Rooms', {
      body: {
        schemas: [ROOM],
        displayName: 'Lab',
        number: 12,
        building: 'North',
        externalId: 'r-12',
      },
    });
    expect(created.status).toBe(201);
    const { id } = created.body;
    expect(created.body.externalId).toBe('r-12');
    const byExternal = await request('GET', '/rooms', {
      query: `filter=${encodeURIComponent('externalId eq "r-12" and meta.resourceType eq "Room"')}`,
    });
    expect(byExternal.body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);
    const taken = await request('POST', '/Rooms', {
      body: { schemas: [ROOM], displayName: 'Other', number: 12 },
    });
    expect(taken.status).toBe(409);
    const moved = await request('PATCH', `/Rooms/${id}`, {
      body: patchBody({ op: 'replace', path: 'building', value: 'South' }),
    });
    expect(moved.status).toBe(400);
    expect(moved.body.scimType).toBe('mutability');
    const same = await request('PATCH', `/Rooms/${id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Lab' }),
    });
    expect(same.status).toBe(200);
    expect(same.body.meta.version).toBe('W/"1"'); // nothing changed, nothing written
    const put = await request('PUT', `/Rooms/${id}`, {
      body: { schemas: [ROOM], id, displayName: 'Big lab', number: 13 },
    });
    expect(put.body).toMatchObject({ displayName: 'Big lab', number: 13, building: 'North' });
    // The old number is free once the room holds another one.
    const reuse = await request('POST', '/Rooms', {
      body: { schemas: [ROOM], displayName: 'Other', number: 12 },
    });
    expect(reuse.status).toBe(201);
    expect(events.map((e) => e.type)).toEqual([
      'resource.created',
      'resource.updated',
      'resource.created',
    ]);
  });

  it('refuses a unique text longer than a store can key on, and writes nothing', async () => {
    const codeSchema = {
      ...roomSchema,
      attributes: [
        ...roomSchema.attributes,
        defineAttribute('code', 'string', { uniqueness: 'server' }),
      ],
    };
    const { request } = setup({ resourceTypes: [room({ schema: codeSchema })] });
    const long = 'x'.repeat(513);
    const refused = await request('POST', '/Rooms', {
      body: { schemas: [ROOM], displayName: 'Lab', code: long },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.scimType).toBe('invalidValue');
    expect((await request('GET', '/Rooms')).body.totalResults).toBe(0);
    const ok = await request('POST', '/Rooms', {
      body: { schemas: [ROOM], displayName: 'Lab', code: 'x'.repeat(512) },
    });
    expect(ok.status).toBe(201);
  });

  it('pages by RFC 9865 cursor on a store with keyset paging, and refuses one on a store without', async () => {
    const { request } = setup({ resourceTypes: [room()] });
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) {
      const reply = await request('POST', '/Rooms', {
        body: { schemas: [ROOM], displayName: `Room ${n}`, number: n },
      });
      ids.push(reply.body.id);
    }
    const seen: string[] = [];
    let query = 'cursor&count=2&sortBy=number&sortOrder=descending';
    for (let pages = 0; pages < 5; pages++) {
      const page = await request('GET', '/Rooms', { query });
      expect(page.status).toBe(200);
      expect(page.body.totalResults).toBe(5);
      seen.push(...page.body.Resources.map((r: { id: string }) => r.id));
      if (page.body.nextCursor === undefined) break;
      query = `cursor=${page.body.nextCursor}&count=2&sortBy=number&sortOrder=descending`;
    }
    expect(seen).toEqual([...ids].reverse());
    const plain = new MemoryResourceStore();
    const noKeyset = Object.assign(plain, { capabilities: { supportsSort: () => true } });
    const other = setup({ resourceTypes: [room({ store: noKeyset })] });
    const refused = await other.request('GET', '/Rooms', { query: 'cursor&count=2' });
    expect(refused.status).toBe(400);
    expect(refused.body.scimType).toBe('invalidCursor');
  });

  it("reads PATCH with the dialect rules of the tenant's profile", async () => {
    const { request } = setup({
      resourceTypes: [room()],
      verifier: staticApiKeys([
        { key: 'lenient', tenant: 't' },
        { key: 'strict', tenant: 't', profile: 'strict' },
      ]),
    });
    const id = (
      await request('POST', '/Rooms', {
        body: { schemas: [ROOM], displayName: 'Lab' },
        key: 'lenient',
      })
    ).body.id;
    const entraStyle = patchBody({ op: 'Replace', path: 'displayName', value: 'Big lab' });
    const strict = await request('PATCH', `/Rooms/${id}`, { body: entraStyle, key: 'strict' });
    expect(strict.status).toBe(400);
    const lenient = await request('PATCH', `/Rooms/${id}`, { body: entraStyle, key: 'lenient' });
    expect(lenient.status).toBe(200);
    expect(lenient.body.displayName).toBe('Big lab');
  });

  it('is described by the OpenAPI document', () => {
    const document = scimOpenApi({ resourceTypes: [room()] });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/Rooms', '/Rooms/{id}', '/Rooms/.search']),
    );
  });
});
