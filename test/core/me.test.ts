import { describe, expect, it } from 'vitest';
import { patchBody, setup, USER_SCHEMA } from './harness.js';

// The host's hook: the caller names the user it acts as in a header (a session in real hosts).
const me = (_tenant: unknown, request: { headers: Readonly<Record<string, unknown>> }) => {
  const who = request.headers['x-user'];
  return typeof who === 'string' ? who : null;
};

describe('/Me', () => {
  it('answers 501 without a me hook', async () => {
    const { request } = setup();
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])
      expect((await request(method, '/Me')).status).toBe(501);
  });

  it('GET, PATCH, PUT and DELETE act on the user the hook names, with Location at /Users/{id}', async () => {
    const { request, createUser } = setup({ me });
    const ada = await createUser('ada@example.org');
    const as = { 'x-user': ada.id };
    const got = await request('GET', '/Me', { headers: as });
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(ada.id);
    expect(got.headers.location).toBe(ada.meta.location);
    expect(got.headers.etag).toBe(ada.meta.version);

    const patched = await request('PATCH', '/Me', {
      headers: as,
      body: patchBody({ op: 'replace', path: 'title', value: 'Countess' }),
    });
    expect(patched.status).toBe(200);
    expect(patched.headers.location).toBe(ada.meta.location);
    expect((await request('GET', `/Users/${ada.id}`)).body.title).toBe('Countess');

    const stale = await request('PUT', '/Me', {
      headers: { ...as, 'if-match': ada.meta.version },
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org' },
    });
    expect(stale.status).toBe(412);
    const put = await request('PUT', '/Me', {
      headers: as,
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', displayName: 'Ada' },
    });
    expect(put.status).toBe(200);
    expect(put.body.title).toBeUndefined();
    expect(put.body.displayName).toBe('Ada');

    const projected = await request('GET', '/Me', { headers: as, query: 'attributes=userName' });
    expect(Object.keys(projected.body).sort()).toEqual(['id', 'schemas', 'userName']);
    expect((await request('DELETE', '/Me', { headers: as })).status).toBe(204);
    expect((await request('GET', `/Users/${ada.id}`)).status).toBe(404);
    expect((await request('GET', '/Me', { headers: as })).status).toBe(404);
  });

  it('answers 404 when the hook finds no user, or one of another tenant', async () => {
    const { request, createUser } = setup({ me });
    expect((await request('GET', '/Me')).status).toBe(404);
    const other = await createUser('bob@example.org', {}, 'key-tenant-b');
    expect((await request('GET', '/Me', { headers: { 'x-user': other.id } })).status).toBe(404);
  });

  it('answers POST /Me with 501, and a failing hook with 500 reported to onError', async () => {
    const errors: unknown[] = [];
    const { request } = setup({
      me: () => {
        throw new Error('session store down');
      },
      onError: (error) => errors.push(error),
    });
    const post = await request('POST', '/Me', { body: { schemas: [USER_SCHEMA], userName: 'x' } });
    expect(post.status).toBe(501);
    expect((await request('GET', '/Me')).status).toBe(500);
    expect(errors).toHaveLength(1);
  });
});
