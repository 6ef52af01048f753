// If-Match and If-None-Match on the User endpoints (RFC 7644 §3.14).
import { describe, expect, it } from 'vitest';
import { patchBody, setup } from './harness.js';

describe('conditional requests', () => {
  it('If-None-Match: * → 304; If-Match: * on an unknown id → 404; on a known one → applies', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const notModified = await request('GET', `/Users/${ada.id}`, {
      headers: { 'if-none-match': '*' },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe(ada.meta.version);
    expect((await request('DELETE', '/Users/nope', { headers: { 'if-match': '*' } })).status).toBe(
      404,
    );
    const patched = await request('PATCH', `/Users/${ada.id}`, {
      headers: { 'if-match': '*' },
      body: patchBody({ op: 'replace', path: 'title', value: 'Dr' }),
    });
    expect(patched.status).toBe(200);
  });

  it('an If-Match list naming the current version among others applies', async () => {
    const { request, createUser } = setup();
    const ada = await createUser('ada@example.org');
    const reply = await request('PATCH', `/Users/${ada.id}`, {
      headers: { 'if-match': `W/"77", ${ada.meta.version}` },
      body: patchBody({ op: 'replace', path: 'title', value: 'Dr' }),
    });
    expect(reply.status).toBe(200);
  });
});
