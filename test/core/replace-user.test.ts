import { describe, expect, it } from 'vitest';
import { ACCOUNT, USER_SCHEMA, setup } from './harness.js';

describe('PUT /Users/{id}', () => {
  it('replaces the updatable profile: omitted readWrite attributes are cleared, roles included', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org', {
      displayName: 'Ada',
      roles: [{ value: 'teacher' }],
    });
    const reply = await request('PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', name: { givenName: 'Augusta' } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.name).toEqual({ givenName: 'Augusta' });
    expect(reply.body).not.toHaveProperty('displayName');
    expect(reply.body).not.toHaveProperty('roles');
    expect(reply.body.meta.version).toBe('W/"2"');
    expect(reply.headers.etag).toBe('W/"2"');
    expect(reply.body.meta.created).toBe(user.meta.created);
    expect((await request('GET', `/Users/${user.id}`)).body).toEqual(reply.body);
  });

  it('leaves active as it is when omitted, and applies it when given', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org', { active: true });
    const kept = await request('PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org' },
    });
    expect(kept.body.active).toBe(true);
    expect(kept.body[ACCOUNT].status).toBe('Invited');
    const off = await request('PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: false },
    });
    expect(off.body.active).toBe(false);
    expect(off.body[ACCOUNT].status).toBe('Deactivated');
  });

  it('ignores readOnly attributes sent, and accepts the matching id', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org');
    const reply = await request('PUT', `/Users/${user.id}`, {
      body: {
        ...user,
        displayName: 'Ada L',
        meta: { version: 'W/"40"' },
        [ACCOUNT]: { status: 'Activated' },
      },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.displayName).toBe('Ada L');
    expect(reply.body.meta.version).toBe('W/"2"');
    expect(reply.body[ACCOUNT].status).toBe('Pending');
  });

  it('a PUT that changes nothing keeps the version', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org');
    const reply = await request('PUT', `/Users/${user.id}`, { body: user });
    expect(reply.status).toBe(200);
    expect(reply.body.meta.version).toBe(user.meta.version);
  });

  it('may change the userName, under the same uniqueness rule', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    await createUser('grace@example.org');
    const renamed = await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ADA.L@example.org' },
    });
    expect(renamed.body.userName).toBe('ADA.L@example.org');
    const clash = await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'Grace@example.org' },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.scimType).toBe('uniqueness');
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(renamed.body);
  });

  describe('bad input changes nothing', () => {
    it.each([
      ['an id that differs from the path', { id: 'other' }, 400, 'mutability'],
      ['a userName that is not an email', { userName: 'nope' }, 400, 'invalidValue'],
      ['a wrong type', { displayName: 12 }, 400, 'invalidValue'],
    ])('%s → %i %s', async (_label, patch, status, scimType) => {
      const { request, createUser } = setup({ userNameRule: 'email' });
      const user = await createUser('ada@example.org');
      const reply = await request('PUT', `/Users/${user.id}`, {
        body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', ...patch },
      });
      expect(reply.status).toBe(status);
      expect(reply.body.scimType).toBe(scimType);
      expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
    });

    it('an unknown id → 404', async () => {
      const { request } = setup();
      const reply = await request('PUT', '/Users/missing', {
        body: { schemas: [USER_SCHEMA], userName: 'ada@example.org' },
      });
      expect(reply.status).toBe(404);
    });

    it('a stale If-Match → 412', async () => {
      const { request, createUser } = setup();
      const user = await createUser('ada@example.org');
      const reply = await request('PUT', `/Users/${user.id}`, {
        body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', displayName: 'x' },
        headers: { 'if-match': 'W/"9"' },
      });
      expect(reply.status).toBe(412);
      expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
    });
  });
});
