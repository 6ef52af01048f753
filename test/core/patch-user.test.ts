import { describe, expect, it } from 'vitest';
import { ACCOUNT, patchBody, setup } from './harness.js';

describe('PATCH /Users/{id}', () => {
  it('replace active false deactivates: 200, the whole user, status Deactivated', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org', { active: true });
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.active).toBe(false);
    expect(reply.body[ACCOUNT].status).toBe('Deactivated');
    expect(reply.body.userName).toBe('ada@example.org');
    expect(reply.headers.etag).toBe('W/"2"');
  });

  it('leaves attributes not named unchanged, roles included', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org', {
      roles: [{ value: 'teacher' }],
      displayName: 'Ada',
    });
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'name.givenName', value: 'Augusta' }),
    });
    expect(reply.body.name).toEqual({ givenName: 'Augusta', familyName: 'Lovelace' });
    expect(reply.body.roles).toEqual([{ value: 'teacher' }]);
    expect(reply.body.displayName).toBe('Ada');
  });

  it('updates roles separately with add and remove', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org');
    const added = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'add', path: 'roles', value: [{ value: 'teacher' }] }),
    });
    expect(added.body.roles).toEqual([{ value: 'teacher' }]);
    const removed = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'remove', path: 'roles' }),
    });
    expect(removed.body).not.toHaveProperty('roles');
  });

  it('accepts a path-less replace with an object value', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org', { active: true });
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'Replace', value: { active: false, displayName: 'A' } }),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ active: false, displayName: 'A' });
  });

  it('a PATCH that changes nothing succeeds without a new version', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org', { active: true });
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: true }),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.meta.version).toBe(user.meta.version);
  });

  it('applies all operations or none', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org', { active: true });
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody(
        { op: 'replace', path: 'active', value: false },
        { op: 'replace', path: 'noSuchAttribute.x', value: 1 },
      ),
    });
    expect(reply.status).toBe(400);
    expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
  });

  it('refuses to change the account status: 400 mutability', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: `${ACCOUNT}:status`, value: 'Activated' }),
    });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('mutability');
    expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
  });

  it('a userName changed to a taken one → 409 and nothing changes', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    await createUser('grace@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: 'GRACE@example.org' }),
    });
    expect(reply.status).toBe(409);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('a userName changed to a non-email → 400 invalidValue (userNameRule "email")', async () => {
    const { request, createUser } = setup({ userNameRule: 'email' });
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: 'ada' }),
    });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it.each([
    [
      'no PatchOp schema',
      { schemas: [], Operations: [{ op: 'replace', path: 'active', value: false }] },
    ],
    ['no Operations', { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'] }],
    ['an unknown op', patchBody({ op: 'merge', path: 'active', value: false })],
    ['a wrong value type', patchBody({ op: 'replace', path: 'active', value: 'maybe' })],
  ])('%s → 400, nothing changes', async (_label, body) => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org', { active: true });
    const reply = await request('PATCH', `/Users/${user.id}`, { body });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toEqual(expect.any(String));
    expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
  });

  it('an unknown id → 404; a stale If-Match → 412', async () => {
    const { request, createUser } = setup();
    expect(
      (
        await request('PATCH', '/Users/missing', {
          body: patchBody({ op: 'replace', path: 'active', value: false }),
        })
      ).status,
    ).toBe(404);
    const user = await createUser('ada@example.org');
    const stale = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: true }),
      headers: { 'if-match': 'W/"5"' },
    });
    expect(stale.status).toBe(412);
  });

  it('concurrent PATCHes each adding a different role keep every role', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org');
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request('PATCH', `/Users/${user.id}`, {
          body: patchBody({ op: 'add', path: 'roles', value: [{ value: `role-${i}` }] }),
        }),
      ),
    );
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const final = await request('GET', `/Users/${user.id}`);
    expect(final.body.roles).toHaveLength(20);
  });
});

describe('PATCH options of createScim', () => {
  it('maxPatchOperations caps a request: 400 tooMany, nothing changes', async () => {
    const { request, createUser } = setup({ maxPatchOperations: 2 });
    const user = await createUser('ada@example.org');
    const ops = Array.from({ length: 3 }, (_, i) => ({
      op: 'replace',
      path: 'displayName',
      value: `n${i}`,
    }));
    const reply = await request('PATCH', `/Users/${user.id}`, { body: patchBody(...ops) });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('tooMany');
    expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
  });

  it('patchRules switches a dialect rule off', async () => {
    const strict = setup({ patchRules: { stringBooleans: false } });
    const lenient = setup();
    const body = patchBody({ op: 'replace', path: 'active', value: 'False' });
    const a = await strict.createUser('ada@example.org', { active: true });
    const b = await lenient.createUser('ada@example.org', { active: true });
    expect((await strict.request('PATCH', `/Users/${a.id}`, { body })).status).toBe(400);
    expect((await lenient.request('PATCH', `/Users/${b.id}`, { body })).body.active).toBe(false);
  });
});
