import { describe, expect, it } from 'vitest';
import { USER_SCHEMA, patchBody, setup } from './harness.js';

// An error detail quotes at most the start of what the client sent: a 10,000-character id,
// path or URN must not come back whole in the answer (nor in every log line that records it).
const LONG = 'x'.repeat(10_000);
const MAX_DETAIL = 300;

describe('error details quote a bounded part of the input', () => {
  it('an unknown id, endpoint or sortBy', async () => {
    const { request } = setup();
    for (const [method, path, query] of [
      ['GET', `/Users/${LONG}`, ''],
      ['GET', `/${LONG}`, ''],
      ['GET', '/Users', `sortBy=${LONG}&startIndex=${LONG}`],
      ['GET', '/Users', `count=${LONG}`],
    ] as const) {
      const reply = await request(method, path, { query });
      expect(
        reply.status,
        `${method} ${path.slice(0, 20)} ${query.slice(0, 20)}`,
      ).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(reply.body.detail.length).toBeLessThan(MAX_DETAIL);
      expect(reply.body.detail).toContain('xxxx');
    }
  });

  it('an unknown schema URN in a POST and a bad PATCH path', async () => {
    const { request, createUser } = setup();
    const post = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA, `urn:${LONG}`], userName: 'ada@example.org' },
    });
    expect(post.status).toBe(400);
    expect(post.body.detail.length).toBeLessThan(MAX_DETAIL);

    const user = await createUser('bob@example.org');
    for (const path of [
      `name.${LONG}`,
      `emails[${LONG}`,
      `urn:${LONG}:x`,
      `emails[type eq "w"]${LONG}`,
    ]) {
      const reply = await request('PATCH', `/Users/${user.id}`, {
        body: patchBody({ op: 'replace', path, value: 'v' }),
      });
      expect(reply.status, path.slice(0, 20)).toBe(400);
      expect(reply.body.detail.length, path.slice(0, 20)).toBeLessThan(MAX_DETAIL);
    }
  });
});
