// PUT /Users/{id} at its edges: an `id` that is not a string, and account status.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, USER_SCHEMA, patchBody, setup } from './harness.js';

describe('PUT with an "id" that is not a string', () => {
  it('PUT with "id": {"toString": 1} answers 400 mutability, not 500', async () => {
    const errors: unknown[] = [];
    const { request, createUser } = setup({ onError: (e) => errors.push(e) });
    const ada = await createUser('ada@example.org');
    const reply = await request('PUT', `/Users/${ada.id}`, {
      body: `{"schemas":["${USER_SCHEMA}"],"userName":"ada@example.org","id":{"toString":1}}`,
    });
    expect(errors).toEqual([]);
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('mutability');
  });

  it('PUT with "id": {} or ["x"] is a 400 mutability', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    for (const id of [{}, [ada.id], 7]) {
      const reply = await request('PUT', `/Users/${ada.id}`, {
        body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', id },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.scimType).toBe('mutability');
    }
  });
});

describe('account status through PUT', () => {
  it('PUT without active on a Deactivated user keeps it Deactivated and sends nothing', async () => {
    const { request, createUser, sent, scim } = setup();
    const ada = await createUser('ada@example.org', { active: true });
    await scim.mail?.drain();
    await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    const reply = await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', displayName: 'Ada' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.active).toBe(false);
    expect(reply.body[ACCOUNT].status).toBe('Deactivated');
    await scim.mail?.drain();
    expect(sent).toHaveLength(1);
  });

  it('PUT active true on a Deactivated user that never logged in → Invited, no second email', async () => {
    const { request, createUser, sent, scim } = setup();
    const ada = await createUser('ada@example.org', { active: true });
    await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: 'False' },
    });
    const reply = await request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    expect(reply.body[ACCOUNT].status).toBe('Invited');
    await scim.mail?.drain();
    expect(sent).toHaveLength(1);
  });

  it('a path-less PATCH value {"active": "False"} deactivates', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org', { active: true });
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'Replace', value: { active: 'False' } }),
    });
    expect(reply.body[ACCOUNT].status).toBe('Deactivated');
  });
});
