import { describe, expect, it } from 'vitest';
import { ScimConfigError } from '../../src/index.js';
import { setup } from './harness.js';

describe('maxResponseBytes and maxResponseBytesInFlight', () => {
  it('refuses at start a budget that is not a positive whole number of bytes', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => setup({ maxResponseBytes: bad })).toThrow(ScimConfigError);
      expect(() => setup({ maxResponseBytesInFlight: bad })).toThrow(/maxResponseBytesInFlight/);
    }
  });

  it('refuses a user too large to answer whole with 400 tooMany, and writes it all the same', async () => {
    const { request } = setup({ maxResponseBytes: 2048 });
    const created = await request('POST', '/Users', {
      body: {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'large@example.org',
        displayName: 'x'.repeat(4096),
      },
    });
    // The write happened; its answer, too large, comes without a body.
    expect(created.status).toBe(201);
    expect(created.body).toBeUndefined();
    expect(created.headers.location).toMatch(/\/Users\/.+/);
    const id = created.headers.location?.split('/').pop() as string;
    const read = await request('GET', `/Users/${id}`);
    expect(read.status).toBe(400);
    expect(read.body.scimType).toBe('tooMany');
    expect(read.body.detail).toContain('maxResponseBytes');
    const shaped = await request('GET', `/Users/${id}`, {
      query: 'excludedAttributes=displayName',
    });
    expect(shaped.status).toBe(200);
    expect(shaped.body.userName).toBe('large@example.org');
  });
});
