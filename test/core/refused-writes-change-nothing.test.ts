// A request the service refuses changes nothing: no user, no field, no queued email.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, USER_SCHEMA, invitations, patchBody, setup } from './harness.js';

const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const BOTH = 'attributes=userName&excludedAttributes=emails';

describe('a projection error after the write: the write is not made', () => {
  it('POST /Users?attributes&excludedAttributes answers 400 and creates nothing, queues no email', async () => {
    const { request, allUsers, store } = setup();
    const reply = await request('POST', '/Users', {
      query: BOTH,
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
    // A 400 must leave nothing behind, or the IdP's retry would get 409.
    expect(await allUsers()).toHaveLength(0);
    expect(await invitations(store)).toBe(0);
  });

  it('PATCH /Users/{id}?attributes&excludedAttributes answers 400 and applies nothing', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      query: BOTH,
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Changed' }),
    });
    expect(reply.status).toBe(400);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('PUT /Users/{id}?attributes&excludedAttributes answers 400 and replaces nothing', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PUT', `/Users/${ada.id}`, {
      query: BOTH,
      body: { schemas: [USER_SCHEMA], userName: 'renamed@example.org' },
    });
    expect(reply.status).toBe(400);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('the same parameters on a read are refused before anything happens', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    expect((await request('GET', `/Users/${ada.id}`, { query: BOTH })).status).toBe(400);
  });
});

describe('PATCH of readOnly attributes changes nothing', () => {
  it.each([
    ['meta', { op: 'replace', path: 'meta', value: { version: 'x' } }],
    ['meta.version', { op: 'replace', path: 'meta.version', value: 'W/"99"' }],
    ['id', { op: 'replace', path: 'id', value: 'mine' }],
    ['groups', { op: 'add', path: 'groups', value: [{ value: 'g-1' }] }],
    ['account status', { op: 'replace', path: `${ACCOUNT}:status`, value: 'Activated' }],
    ['path-less id', { op: 'replace', value: { id: 'mine' } }],
    ['path-less meta', { op: 'replace', value: { meta: { created: '2000-01-01T00:00:00Z' } } }],
    ['path-less groups', { op: 'add', value: { groups: [{ value: 'g-1' }] } }],
  ])('%s → 400 mutability, user unchanged', async (_label, operation) => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, { body: patchBody(operation) });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('mutability');
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('a PATCH of "schemas" never changes the stored schemas', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    for (const operation of [
      { op: 'replace', path: 'schemas', value: [USER_SCHEMA] },
      { op: 'add', path: 'schemas', value: [ENTERPRISE] },
      { op: 'replace', value: { schemas: ['urn:x'] } },
    ]) {
      const reply = await request('PATCH', `/Users/${ada.id}`, { body: patchBody(operation) });
      expect(reply.status).not.toBe(500);
      expect((await request('GET', `/Users/${ada.id}`)).body.schemas).toEqual(ada.schemas);
    }
  });

  it('removing userName → 400, user unchanged', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'remove', path: 'userName' }),
    });
    expect(reply.status).toBe(400);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('adding a second primary email leaves exactly one primary (RFC 7643 §2.4)', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org', {
      emails: [{ value: 'ada@example.org', type: 'work', primary: true }],
    });
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({
        op: 'add',
        path: 'emails',
        value: [{ value: 'a2@example.org', primary: true }],
      }),
    });
    expect(reply.status).toBe(200);
    const primaries = reply.body.emails.filter((e: { primary?: boolean }) => e.primary === true);
    expect(primaries).toEqual([{ value: 'a2@example.org', primary: true }]);
  });
});
