// Object.prototype names are data and unknown routes, never lookups on a prototype.
import { describe, expect, it } from 'vitest';
import { USER_SCHEMA, setup } from './harness.js';

describe('Object.prototype names are not routes', () => {
  it.each(['/__proto__', '/constructor', '/__proto__/x', '/constructor/x'])(
    'GET %s answers 404, not a 405 from Object.prototype',
    async (path) => {
      const { request } = setup();
      const reply = await request('GET', path);
      // unknown route → 404. RFC 9110 §15.5.6: a 405 must list the allowed methods.
      expect(reply.status).toBe(404);
    },
  );

  it.each(['/toString', '/hasOwnProperty', '/Schemas/__proto__', '/ResourceTypes/constructor'])(
    'GET %s → 404',
    async (path) => {
      const { request } = setup();
      expect((await request('GET', path)).status).toBe(404);
    },
  );
});

describe('prototype pollution', () => {
  const polluted = () => ({}) as Record<string, unknown>;

  it('"__proto__" and "constructor" members in POST, PUT and PATCH bodies stay data', async () => {
    const { request, createUser, store } = setup();
    const post = await request('POST', '/Users', {
      body: `{"schemas":["${USER_SCHEMA}"],"userName":"p@example.org","__proto__":{"active":true,"polluted":1},"name":{"__proto__":{"polluted":2},"givenName":"P"},"constructor":{"prototype":{"polluted":3}}}`,
    });
    expect(post.status).toBe(201);
    // A __proto__ member must not smuggle in active: true.
    expect(post.body.active).toBe(false);
    const ada = await createUser('ada@example.org');
    const patch = await request('PATCH', `/Users/${ada.id}`, {
      body: `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","value":{"__proto__":{"polluted":4},"name":{"__proto__":{"polluted":5}}}},{"op":"add","path":"emails","value":[{"__proto__":{"polluted":6},"value":"x@example.org"}]}]}`,
    });
    expect(patch.status).toBe(200);
    const put = await request('PUT', `/Users/${ada.id}`, {
      body: `{"schemas":["${USER_SCHEMA}"],"userName":"ada@example.org","emails":[{"value":"y@example.org","__proto__":{"polluted":7}}]}`,
    });
    expect(put.status).toBe(200);
    expect(polluted().polluted).toBeUndefined();
    const stored = store.peek('tenant-a', ada.id) as Record<string, unknown>;
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(JSON.stringify(stored)).not.toContain('polluted');
  });
});
