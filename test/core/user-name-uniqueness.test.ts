// userName uniqueness: one identity whatever the case, freed on rename, length limits.
import { describe, expect, it } from 'vitest';
import { USER_SCHEMA, patchBody, setup } from './harness.js';

const q = (filter: string) => `filter=${encodeURIComponent(filter)}`;

describe('userName rules', () => {
  it('a change to another letter case of itself is not a conflict (PATCH and PUT)', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const patched = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: 'ADA@example.org' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.body.userName).toBe('ADA@example.org');
    const put = await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'Ada@Example.org' },
    });
    expect(put.status).toBe(200);
    // The old spelling is still this user's, in any case.
    const taken = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@EXAMPLE.org' },
    });
    expect(taken.status).toBe(409);
  });

  it('a renamed user frees its old userName and holds the new one', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: 'augusta@example.org' }),
    });
    const reuse = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ADA@example.org' },
    });
    expect(reuse.status).toBe(201);
    const clash = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'Augusta@example.org' },
    });
    expect(clash.status).toBe(409);
  });

  it('non-ASCII letters are compared without case too', async () => {
    const { request, createUser } = setup();
    await createUser('ÄDA@example.org');
    const reply = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'äda@example.org' },
    });
    expect(reply.status).toBe(409);
    expect(reply.body.scimType).toBe('uniqueness');
  });

  it('254 characters is accepted and 255 refused, on POST and on PATCH (userNameRule "email")', async () => {
    const { request, createUser } = setup({ userNameRule: 'email' });
    const at254 = `${'a'.repeat(242)}@example.org`;
    const at255 = `${'a'.repeat(243)}@example.org`;
    expect(at254).toHaveLength(254);
    const created = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: at254 },
    });
    expect(created.status).toBe(201);
    const refused = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: at255 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.scimType).toBe('invalidValue');
    const ada = await createUser('ada@example.org');
    const patched = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: at255 }),
    });
    expect(patched.status).toBe(400);
    expect((await request('GET', `/Users/${ada.id}`)).body).toEqual(ada);
  });

  it('externalId is not unique: two users may share one, and a filter finds both', async () => {
    const { request, createUser } = setup();
    await createUser('ada@example.org', { externalId: 'same' });
    await createUser('bob@example.org', { externalId: 'same' });
    const reply = await request('GET', '/Users', { query: q('externalId eq "same"') });
    expect(reply.body.totalResults).toBe(2);
  });
});
