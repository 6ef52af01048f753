import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ENTERPRISE_USER_SCHEMA, scimErrors } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { scimOpenApi } from '../../src/openapi/index.js';
import {
  BASE,
  KEY_A,
  USER_SCHEMA,
  patchBody,
  setup,
  type Reply,
  type Send,
} from '../core/harness.js';
import { districtSchema } from './fixtures.js';

// Every answer the core gives is one the document describes: the status is listed for the
// operation, and the body validates against its schema (JSON Schema 2020-12).

// The very options the service runs with: its store keeps groups, so /Groups is described.
const options = { basePath: BASE, extensions: [districtSchema], store: new MemoryUserStore() };
const doc = scimOpenApi(options);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ components: doc.components }, 'doc');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function responseOf(path: string, method: string, status: number): Json | undefined {
  const operation = (doc.paths[path] as Json | undefined)?.[method.toLowerCase()] as Json;
  let response = operation?.responses?.[status] as Json | undefined;
  if (response?.$ref) {
    response = doc.components.responses[String(response.$ref).split('/').pop() ?? ''];
  }
  return response;
}

function check(path: string, method: string, reply: Reply): void {
  const response = responseOf(path, method, reply.status);
  expect(response, `${method} ${path} answers ${reply.status}, not in the document`).toBeDefined();
  const schema = response?.content?.['application/scim+json']?.schema as Json | undefined;
  if (schema === undefined) {
    expect(reply.body, `${method} ${path} ${reply.status} has no body in the document`).toBe(
      undefined,
    );
    return;
  }
  // The schema's references point into the document's components, added above as `doc`.
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"doc#/')));
  const valid = validate(reply.body);
  expect(validate.errors ?? [], `${method} ${path} ${reply.status}`).toEqual([]);
  expect(valid).toBe(true);
}

describe('what the core answers matches the document', () => {
  const { request } = setup(options);
  const call = async (method: string, template: string, path: string, send: Send = {}) => {
    const reply = await request(method, path, send);
    check(template, method, reply);
    return reply;
  };
  const newUser = (userName: string) => ({
    schemas: [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, districtSchema.id],
    userName,
    active: true,
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: userName, type: 'work', primary: true }],
    [ENTERPRISE_USER_SCHEMA]: { department: 'Math', manager: { value: 'boss' } },
    [districtSchema.id]: { studentNumber: 'S-1', grade: 7, guardians: [{ name: 'Byron' }] },
  });

  it('for users: create, read, list, search, replace, patch, delete', async () => {
    const created = await call('POST', '/Users', '/Users', { body: newUser('ada@example.org') });
    expect(created.status).toBe(201);
    expect(created.body[districtSchema.id]).toEqual({
      studentNumber: 'S-1',
      grade: 7,
      guardians: [{ name: 'Byron' }],
    });
    const id = created.body.id as string;
    await call('POST', '/Users', '/Users', { body: newUser('bob@example.org') });
    expect((await call('GET', '/Users/{id}', `/Users/${id}`)).status).toBe(200);
    const etag = created.headers.etag ?? '';
    const notModified = await call('GET', '/Users/{id}', `/Users/${id}`, {
      headers: { 'if-none-match': etag },
    });
    expect(notModified.status).toBe(304);
    const page = await call('GET', '/Users', '/Users', { query: 'count=1&sortBy=userName' });
    expect(page.body.Resources).toHaveLength(1);
    expect((await call('GET', '/Users', '/Users', { query: 'count=5' })).body.totalResults).toBe(2);
    const projected = await call('GET', '/Users', '/Users', { query: 'attributes=displayName' });
    expect(projected.status).toBe(200);
    const searched = await call('POST', '/Users/.search', '/Users/.search', {
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: 'userName sw "ada"',
        attributes: ['userName'],
      },
    });
    expect(searched.body.totalResults).toBe(1);
    const replaced = await call('PUT', '/Users/{id}', `/Users/${id}`, {
      body: { ...newUser('ada@example.org'), displayName: 'Ada' },
    });
    expect(replaced.status).toBe(200);
    const patched = await call('PATCH', '/Users/{id}', `/Users/${id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    expect(patched.status).toBe(200);
    expect((await call('DELETE', '/Users/{id}', `/Users/${id}`)).status).toBe(204);
  });

  it('for groups: create, read, list, patch (204), replace, delete', async () => {
    const user = await call('POST', '/Users', '/Users', { body: newUser('member@example.org') });
    const group = await call('POST', '/Groups', '/Groups', {
      body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Teachers',
        members: [{ value: user.body.id }],
      },
    });
    expect(group.status).toBe(201);
    const id = group.body.id as string;
    expect((await call('GET', '/Groups/{id}', `/Groups/${id}`)).status).toBe(200);
    expect((await call('GET', '/Groups', '/Groups')).body.totalResults).toBe(1);
    const patched = await call('PATCH', '/Groups/{id}', `/Groups/${id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Staff' }),
    });
    expect(patched.status).toBe(204);
    const replaced = await call('PUT', '/Groups/{id}', `/Groups/${id}`, {
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'All' },
    });
    expect(replaced.status).toBe(200);
    expect((await call('DELETE', '/Groups/{id}', `/Groups/${id}`)).status).toBe(204);
  });

  it('for errors: each a SCIM error with a status the operation lists', async () => {
    const statuses: number[] = [];
    const err = async (method: string, template: string, path: string, send: Send = {}) =>
      statuses.push((await call(method, template, path, send)).status);
    await err('POST', '/Users', '/Users', { body: { schemas: [USER_SCHEMA] } });
    await err('POST', '/Users', '/Users', { body: '{' });
    await err('POST', '/Users', '/Users', { body: newUser('x@example.org'), key: null });
    await err('POST', '/Users', '/Users', {
      body: newUser('x@example.org'),
      headers: { 'content-type': 'text/plain' },
    });
    await call('POST', '/Users', '/Users', { body: newUser('x@example.org') });
    await err('POST', '/Users', '/Users', { body: newUser('X@example.org') });
    await err('GET', '/Users', '/Users', { query: 'filter=nope%20eq' });
    await err('GET', '/Users/{id}', '/Users/missing');
    await err('PATCH', '/Users/{id}', '/Users/missing', {
      body: patchBody({ op: 'replace', path: 'active', value: true }),
    });
    const [user] = (await request('GET', '/Users', { query: 'count=1' })).body.Resources;
    await err('PATCH', '/Users/{id}', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: true }),
      headers: { 'if-match': 'W/"stale"' },
    });
    await err('PATCH', '/Users/{id}', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'nosuch[', value: 1 }),
    });
    await err('DELETE', '/Users/{id}', `/Users/${user.id}`, { headers: { 'if-match': 'W/"0"' } });
    await err('GET', '/Schemas/{id}', '/Schemas/urn:nope');
    expect(statuses).toEqual([400, 400, 401, 415, 409, 400, 404, 404, 412, 400, 412, 404]);
  });

  it('for discovery', async () => {
    await call('GET', '/ServiceProviderConfig', '/ServiceProviderConfig');
    await call('GET', '/ResourceTypes', '/ResourceTypes');
    await call('GET', '/ResourceTypes/{id}', '/ResourceTypes/User');
    const schemas = await call('GET', '/Schemas', '/Schemas');
    expect(schemas.body.Resources.map((s: Json) => s.id)).toContain(districtSchema.id);
    await call('GET', '/Schemas/{id}', `/Schemas/${districtSchema.id}`);
  });

  it('for refusals: a read-only key, the rate limit, an answer too large, a busy store', async () => {
    const readOnly = 'read-only-key';
    const busy = 'busy-tenant-key';
    class BusyStore extends MemoryUserStore {
      override get(tenant: string, id: string) {
        // What a PostgreSQL statement past its timeout answers.
        if (tenant === 'busy') return Promise.reject(scimErrors.serviceUnavailable('Busy.', 2));
        return super.get(tenant, id);
      }
    }
    const refusing = setup({
      extensions: [districtSchema],
      store: new BusyStore({ maxFilterWork: 50 }),
      maxResponseBytes: 600,
      verifier: {
        verify: (token) =>
          token === readOnly
            ? { id: 'tenant-a', scopes: ['scim:read'] }
            : token === busy
              ? { id: 'busy' }
              : token === KEY_A
                ? { id: 'tenant-a' }
                : null,
      },
      rateLimit: (_, head) => !head.headers['x-flood'] || { retryAfterSeconds: 3 },
    });
    const refused = async (
      method: string,
      template: string,
      path: string,
      send: Send = {},
    ): Promise<Reply> => {
      const reply = await refusing.request(method, path, send);
      check(template, method, reply);
      return reply;
    };
    const ada = newUser('ada@example.org');
    const created = await refusing.request('POST', '/Users', { body: ada });
    expect(created.status).toBe(201);
    // Too large to answer whole under maxResponseBytes: the write answers without a body.
    const id = (created.headers.location ?? '').split('/').pop() ?? '';
    const patch = patchBody({ op: 'replace', path: 'active', value: false });
    const writes = [
      await refused('POST', '/Users', '/Users', { key: readOnly, body: newUser('b@example.org') }),
      await refused('PUT', '/Users/{id}', `/Users/${id}`, { key: readOnly, body: ada }),
      await refused('PATCH', '/Users/{id}', `/Users/${id}`, { key: readOnly, body: patch }),
      await refused('DELETE', '/Users/{id}', `/Users/${id}`, { key: readOnly }),
    ];
    expect(writes.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    const flood = { headers: { 'x-flood': '1' } };
    const limited = await refused('GET', '/Users', '/Users', flood);
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '3']);
    expect((await refused('GET', '/Schemas', '/Schemas', flood)).status).toBe(429);
    // Larger than maxResponseBytes on its own; and a filter past the store's work budget.
    const tooLarge = await refused('GET', '/Users/{id}', `/Users/${id}`);
    expect([tooLarge.status, tooLarge.body.scimType]).toEqual([400, 'tooMany']);
    for (let i = 0; i < 60; i++)
      await refusing.request('POST', '/Users', {
        body: { schemas: [USER_SCHEMA], userName: `u${i}@example.org` },
      });
    const overWork = await refused('GET', '/Users', '/Users', {
      query: `filter=${encodeURIComponent('displayName co "x" or nickName co "y"')}&count=1`,
    });
    expect([overWork.status, overWork.body.scimType]).toEqual([400, 'tooMany']);
    const unavailable = await refused('GET', '/Users/{id}', `/Users/${id}`, { key: busy });
    expect([unavailable.status, unavailable.headers['retry-after']]).toEqual([503, '2']);
  });

  it('refuses a body the document does not allow (the check really checks)', () => {
    expect(() =>
      check('/Users/{id}', 'GET', { status: 200, headers: {}, body: { userName: 'no id' } }),
    ).toThrow();
    expect(() => check('/Users/{id}', 'GET', { status: 201, headers: {}, body: {} })).toThrow();
  });
});
