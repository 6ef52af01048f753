import { describe, expect, it } from 'vitest';
import { setup } from './harness.js';

describe('GET /Users/{id} and DELETE /Users/{id}', () => {
  it('GET answers 200 with the user and its ETag, 404 for an unknown id', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org');
    const reply = await request('GET', `/Users/${user.id}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.etag).toBe(user.meta.version);
    expect(reply.body).toEqual(user);
    const missing = await request('GET', '/Users/no-such-id');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({
      status: '404',
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
    });
  });

  it('GET with If-None-Match of the current version → 304 without body', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org');
    const reply = await request('GET', `/Users/${user.id}`, {
      headers: { 'if-none-match': user.meta.version },
    });
    expect(reply.status).toBe(304);
    expect(reply.body).toBeUndefined();
    const stale = await request('GET', `/Users/${user.id}`, {
      headers: { 'if-none-match': 'W/"0"' },
    });
    expect(stale.status).toBe(200);
  });

  it('DELETE answers 204, then the id is 404 and out of the list', async () => {
    const { request, createUser, allUsers } = setup();
    const user = await createUser('ada@example.org');
    const reply = await request('DELETE', `/Users/${user.id}`);
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect((await request('GET', `/Users/${user.id}`)).status).toBe(404);
    expect((await request('DELETE', `/Users/${user.id}`)).status).toBe(404);
    expect(await allUsers()).toEqual([]);
  });

  it('DELETE with a stale If-Match → 412 and the user stays', async () => {
    const { request, createUser } = setup();
    const user = await createUser('ada@example.org');
    const reply = await request('DELETE', `/Users/${user.id}`, {
      headers: { 'if-match': 'W/"7"' },
    });
    expect(reply.status).toBe(412);
    expect((await request('GET', `/Users/${user.id}`)).status).toBe(200);
  });

  it('the userName of a deleted user can be used again, with a new id', async () => {
    const { request, createUser } = setup();
    const first = await createUser('ada@example.org');
    await request('DELETE', `/Users/${first.id}`);
    const second = await createUser('ada@example.org');
    expect(second.id).not.toBe(first.id);
  });
});
