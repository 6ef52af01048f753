import { describe, expect, inject, it } from 'vitest';
import { ScimClient } from '../http/contract-client.js';
import { startExample } from './start-runtime.js';

describe.each(inject('runtimes'))('examples/$name', (found) => {
  it('serves SCIM at /api/v1/scim/v2 with the development key', async (context) => {
    if (found.binary === undefined) return context.skip(found.missing);
    const server = await startExample(found.name, found.binary);
    try {
      const client = new ScimClient(() => server.url, 'dev-key');
      const created = await client.createUser('ada@example.org');
      const location = created.headers.get('location') ?? '';
      expect(location.startsWith(`${server.url}/Users/`)).toBe(true);
      expect((await client.send('GET', location.slice(server.url.length))).json).toEqual(
        created.json,
      );
      expect((await client.send('GET', '/Users', { token: 'not-the-key' })).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
