// A resource type of the host's own over HTTP: examples/classes serves a district's `Class` at
// `/Classes` beside Users and Groups, and gets every SCIM feature for it without writing any,
// on every store the example runs on: memory, PGlite, and a PostgreSQL server when
// SCIMKIT_TEST_DATABASE_URL is set.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_SCHEMA } from '../../examples/classes/class-schema.js';
import { classesScim } from '../../examples/classes/main.js';
import { openClassesStores, type ClassesStores } from '../../examples/classes/open-stores.js';
import { scimNode } from '../../src/adapters/node/index.js';
import { staticApiKeys, type ScimEvent } from '../../src/index.js';
import { discard, exampleStores, sendTo, type ExampleReply } from './example-stores.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

// The stores this run covers (the PostgreSQL server only when its URL is set).
const stores = exampleStores('classes').filter((store) => store.skip === undefined);

describe.each(stores)('a host resource type (examples/classes) over HTTP on $name', (store) => {
  let server: Server;
  let opened: ClassesStores;
  const storeConfig = store.config();
  let base = '';
  const events: ScimEvent[] = [];
  let teacher = '';
  let student = '';

  const send = (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    key = 'key-a',
  ): Promise<ExampleReply> => sendTo(`${base}${path}`, method, key, body, headers);

  const aClass = (extra: Record<string, unknown> = {}) => ({
    schemas: [CLASS_SCHEMA],
    displayName: 'Algebra I',
    code: 'MATH-101',
    term: '2026-fall',
    ...extra,
  });

  async function createUser(userName: string, displayName: string): Promise<string> {
    const reply = await send('POST', '/Users', { schemas: [USER_SCHEMA], userName, displayName });
    expect(reply.status).toBe(201);
    return reply.body.id as string;
  }

  beforeAll(async () => {
    opened = await openClassesStores(storeConfig);
    const options = {
      auth: {
        verifier: staticApiKeys([
          { key: 'key-a', tenant: 'district-a' },
          { key: 'key-b', tenant: 'district-b' },
        ]),
      },
      hooks: { onEvent: (event: ScimEvent) => events.push(event) },
    };
    const scim = classesScim(options, opened);
    server = createServer(scimNode(scim));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/scim/v2`;
    teacher = await createUser('ada@example.org', 'Ada Lovelace');
    student = await createUser('alan@example.org', 'Alan Turing');
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await opened.close();
    await discard(storeConfig);
  });

  it('creates a class with a teacher reference: 201, Location, ETag, meta, events', async () => {
    const created = await send(
      'POST',
      '/Classes',
      aClass({ code: 'CREATE-1', teacher: { value: teacher, display: 'Ada Lovelace' } }),
    );
    expect(created.status).toBe(201);
    const { id } = created.body;
    expect(created.headers.get('location')).toBe(`${base}/Classes/${id}`);
    expect(created.headers.get('etag')).toBe('W/"1"');
    expect(created.body).toMatchObject({
      schemas: [CLASS_SCHEMA],
      displayName: 'Algebra I',
      teacher: { value: teacher, display: 'Ada Lovelace' },
      meta: { resourceType: 'Class', version: 'W/"1"', location: `${base}/Classes/${id}` },
    });
    const read = await send('GET', `/Classes/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const notModified = await send('GET', `/Classes/${id}`, undefined, {
      'if-none-match': 'W/"1"',
    });
    expect(notModified.status).toBe(304);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'resource.created',
        resourceType: 'Class',
        tenant: 'district-a',
      }),
    );
    // Another tenant sees nothing of it.
    expect((await send('GET', `/Classes/${id}`, undefined, {}, 'key-b')).status).toBe(404);
  });

  it('lists with a filter, sort and projection', async () => {
    for (const [displayName, code, term] of [
      ['Zoology', 'BIO-9', 'list-term'],
      ['Botany', 'BIO-2', 'list-term'],
      ['Chemistry', 'CHEM-1', 'other-term'],
    ])
      expect((await send('POST', '/Classes', aClass({ displayName, code, term }))).status).toBe(
        201,
      );
    const filter = encodeURIComponent('term eq "list-term"');
    const list = await send(
      'GET',
      `/Classes?filter=${filter}&sortBy=displayName&sortOrder=descending&attributes=code`,
    );
    expect(list.status).toBe(200);
    expect(list.body.totalResults).toBe(2);
    expect(list.body.Resources.map((r: { code: string }) => r.code)).toEqual(['BIO-9', 'BIO-2']);
    // `attributes=code`: the code, and what is always returned; no displayName, no term.
    expect(Object.keys(list.body.Resources[0]).sort()).toEqual(['code', 'id', 'schemas']);
    const search = await send('POST', '/Classes/.search', {
      schemas: [SEARCH],
      filter: 'code sw "bio"',
      sortBy: 'code',
      excludedAttributes: 'term',
    });
    expect(search.body.Resources.map((r: { code: string }) => r.code)).toEqual(['BIO-2', 'BIO-9']);
    expect(search.body.Resources[0].term).toBeUndefined();
  });

  it('filters on a sub-attribute of the reference', async () => {
    await send('POST', '/Classes', aClass({ code: 'REF-1', teacher: { value: student } }));
    const filter = encodeURIComponent(`teacher.value eq "${student}"`);
    const list = await send('GET', `/Classes?filter=${filter}`);
    expect(list.body.Resources.map((r: { code: string }) => r.code)).toEqual(['REF-1']);
  });

  it('replaces with PUT and patches with PATCH under If-Match (412 when stale)', async () => {
    const created = (await send('POST', '/Classes', aClass({ code: 'PUT-1', term: 'spring' })))
      .body;
    const path = `/Classes/${created.id}`;
    const put = await send('PUT', path, {
      schemas: [CLASS_SCHEMA],
      displayName: 'Geometry',
      code: 'PUT-1',
    });
    expect(put.status).toBe(200);
    expect(put.body.displayName).toBe('Geometry');
    expect(put.body.term).toBeUndefined(); // left out of a PUT: cleared
    expect(put.headers.get('etag')).toBe('W/"2"');
    const stale = await send(
      'PATCH',
      path,
      { schemas: [PATCH], Operations: [{ op: 'replace', path: 'term', value: 'fall' }] },
      { 'if-match': 'W/"1"' },
    );
    expect(stale.status).toBe(412);
    const patched = await send(
      'PATCH',
      path,
      {
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'term', value: 'fall' },
          { op: 'add', path: 'students', value: [{ value: student, display: 'Alan Turing' }] },
        ],
      },
      { 'if-match': 'W/"2"' },
    );
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ term: 'fall', students: [{ value: student }] });
    expect(patched.headers.get('etag')).toBe('W/"3"');
    const removeStudent = await send('PATCH', path, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `students[value eq "${student}"]` }],
    });
    expect(removeStudent.body.students).toBeUndefined();
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'resource.updated', changed: ['term', 'students'] }),
    );
  });

  it('deletes under If-Match: 412 when stale, then 204, then 404', async () => {
    const created = (await send('POST', '/Classes', aClass({ code: 'DEL-1' }))).body;
    const path = `/Classes/${created.id}`;
    expect((await send('DELETE', path, undefined, { 'if-match': 'W/"7"' })).status).toBe(412);
    expect((await send('DELETE', path, undefined, { 'if-match': 'W/"1"' })).status).toBe(204);
    expect((await send('GET', path)).status).toBe(404);
    expect(events).toContainEqual({
      type: 'resource.deleted',
      tenant: 'district-a',
      at: expect.any(String),
      resourceType: 'Class',
      id: created.id,
    });
    // The code is free again once its class is gone.
    expect((await send('POST', '/Classes', aClass({ code: 'del-1' }))).status).toBe(201);
  });

  it('keeps a `uniqueness: server` attribute unique per tenant, regardless of case', async () => {
    expect((await send('POST', '/Classes', aClass({ code: 'UNIQUE-1' }))).status).toBe(201);
    const taken = await send('POST', '/Classes', aClass({ code: 'unique-1' }));
    expect(taken.status).toBe(409);
    expect(taken.body.scimType).toBe('uniqueness');
    expect((await send('POST', '/Classes', aClass({ code: 'UNIQUE-1' }), {}, 'key-b')).status).toBe(
      201,
    );
  });

  it('answers SCIM errors for bad input and writes nothing', async () => {
    const before = (await send('GET', '/Classes')).body.totalResults;
    const missing = await send('POST', '/Classes', { schemas: [CLASS_SCHEMA], code: 'X-1' });
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/displayName/);
    const wrongType = await send('POST', '/Classes', aClass({ code: 'X-2', students: 'everyone' }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.scimType).toBe('invalidValue');
    const noUser = await send(
      'POST',
      '/Classes',
      aClass({ code: 'X-3', teacher: { value: 'nobody' } }),
    );
    expect(noUser.status).toBe(400);
    expect(noUser.body.detail).toMatch(/not a user/);
    const wrongSchema = await send('POST', '/Classes', {
      ...aClass({ code: 'X-4' }),
      schemas: [USER_SCHEMA],
    });
    expect(wrongSchema.status).toBe(400);
    const badFilter = await send('GET', `/Classes?filter=${encodeURIComponent('room eq "1"')}`);
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.scimType).toBe('invalidFilter');
    expect((await send('GET', '/Classes')).body.totalResults).toBe(before);
    const id = (await send('POST', '/Classes', aClass({ code: 'X-5' }))).body.id;
    const unknownPath = await send('PATCH', `/Classes/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'room', value: '12' }],
    });
    expect(unknownPath.status).toBe(400);
    expect(unknownPath.body.scimType).toBe('invalidPath');
    const required = await send('PATCH', `/Classes/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: 'displayName' }],
    });
    expect(required.status).toBe(400);
    const badTeacher = await send('PATCH', `/Classes/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'teacher.value', value: 'nobody' }],
    });
    expect(badTeacher.status).toBe(400);
    const after = (await send('GET', `/Classes/${id}`)).body;
    expect(after.meta.version).toBe('W/"1"');
    expect(after.teacher).toBeUndefined();
  });

  it('answers racing creates of one code with one 201 and 409s, and a too long code with 400', async () => {
    const replies = await Promise.all(
      ['RACE-1', 'race-1', 'Race-1', 'RACE-1'].map((code) =>
        send('POST', '/Classes', aClass({ code })),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(replies.filter((r) => r.status === 409).map((r) => r.body.scimType)).toEqual([
      'uniqueness',
      'uniqueness',
      'uniqueness',
    ]);
    const long = await send('POST', '/Classes', aClass({ code: '長'.repeat(2000) }));
    expect(long.status).toBe(400);
    expect(long.body.scimType).toBe('invalidValue');
    const search = await send(
      'GET',
      `/Classes?filter=${encodeURIComponent(`code eq "${'x'.repeat(2000)}"`)}`,
    );
    expect([search.status, search.body.totalResults]).toEqual([200, 0]);
    const wrongType = await send('GET', `/Classes?filter=${encodeURIComponent('code gt 3')}`);
    expect(wrongType.status).toBe(400);
  });

  it('pages classes by cursor in sortBy order, neither skipping nor repeating one while others are written', async () => {
    const codes = ['CUR-5', 'CUR-2', 'CUR-7', 'CUR-1', 'CUR-4', 'CUR-3', 'CUR-6'];
    const ids = new Map<string, string>();
    for (const code of codes)
      ids.set(code, (await send('POST', '/Classes', aClass({ code, term: 'cursor' }))).body.id);
    const filter = encodeURIComponent('term eq "cursor"');
    const seen: string[] = [];
    let cursor = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await send(
        'GET',
        `/Classes?filter=${filter}&sortBy=code&sortOrder=descending&count=3&cursor=${encodeURIComponent(cursor)}`,
      );
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      seen.push(...page.body.Resources.map((r: { code: string }) => r.code));
      if (pages === 0) {
        // Meanwhile: one not yet listed goes, one more arrives after the place.
        expect((await send('DELETE', `/Classes/${ids.get('CUR-2')}`)).status).toBe(204);
        const more = aClass({ code: 'CUR-0', term: 'cursor' });
        expect((await send('POST', '/Classes', more)).status).toBe(201);
      }
      if (page.body.nextCursor === undefined) break;
      cursor = page.body.nextCursor as string;
    }
    expect(seen).toEqual(['CUR-7', 'CUR-6', 'CUR-5', 'CUR-4', 'CUR-3', 'CUR-1', 'CUR-0']);
  });

  it('creates a user and a class that refers to it in one Bulk request, in any order', async () => {
    const reply = await send('POST', '/Bulk', {
      schemas: [BULK],
      Operations: [
        {
          method: 'POST',
          path: '/Classes',
          bulkId: 'class',
          data: aClass({ code: 'BULK-1', teacher: { value: 'bulkId:grace' } }),
        },
        {
          method: 'POST',
          path: '/Users',
          bulkId: 'grace',
          data: { schemas: [USER_SCHEMA], userName: 'grace@example.org' },
        },
      ],
    });
    expect(reply.status).toBe(200);
    const [classOp, userOp] = reply.body.Operations;
    expect([classOp.status, userOp.status]).toEqual(['201', '201']);
    const grace = (await send('GET', userOp.location.slice(base.length))).body;
    const bulkClass = (await send('GET', classOp.location.slice(base.length))).body;
    expect(bulkClass.teacher.value).toBe(grace.id);
  });

  it('searches users and classes at the root', async () => {
    await send('POST', '/Classes', aClass({ displayName: 'Ada programming', code: 'ROOT-1' }));
    const filter = encodeURIComponent('displayName sw "Ada"');
    const list = await send('GET', `/?filter=${filter}`);
    expect(list.status).toBe(200);
    const types = list.body.Resources.map(
      (r: { meta: { resourceType: string } }) => r.meta.resourceType,
    );
    expect(types).toEqual(['User', 'Class']);
    const search = await send('POST', '/.search', {
      schemas: [SEARCH],
      filter: 'code eq "ROOT-1"',
    });
    expect(search.body.totalResults).toBe(1);
    expect(search.body.Resources[0].meta.location).toMatch(`${base}/Classes/`);
  });

  it('lists the type at /ResourceTypes and its schema at /Schemas', async () => {
    const types = await send('GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: { name: string }) => t.name)).toEqual([
      'User',
      'Group',
      'Class',
    ]);
    const type = await send('GET', '/ResourceTypes/Class');
    expect(type.body).toMatchObject({ name: 'Class', endpoint: '/Classes', schema: CLASS_SCHEMA });
    const schema = await send('GET', `/Schemas/${CLASS_SCHEMA}`);
    expect(schema.status).toBe(200);
    const names = schema.body.attributes.map((a: { name: string }) => a.name);
    // The common attributes (`id`, `externalId`, `meta`) are not listed, as for the User.
    expect(names).toEqual(['displayName', 'code', 'term', 'teacher', 'students']);
    const all = await send('GET', '/Schemas');
    expect(all.body.Resources.map((s: { id: string }) => s.id)).toContain(CLASS_SCHEMA);
  });
});
