// Search at the root over HTTP on the example server: GET /?filter=... and POST /.search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { testConfig } from './test-config.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const auth = { authorization: 'Bearer k1', 'content-type': 'application/scim+json' };

describe('search at the root on the example server', () => {
  let running: RunningServer;
  const created: string[] = [];
  beforeAll(async () => {
    running = await startServer(testConfig(), { print: () => undefined });
    for (const userName of ['root-a@example.org', 'root-b@example.org', 'other@example.org']) {
      const reply = await fetch(`${running.url}/Users`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ schemas: [USER_SCHEMA], userName }),
      });
      expect(reply.status).toBe(201);
      created.push(((await reply.json()) as { id: string }).id);
    }
  }, 60_000);
  afterAll(() => running.close());

  it('GET / with a filter answers a ListResponse, with or without the trailing slash', async () => {
    const filter = encodeURIComponent('userName sw "root-"');
    for (const url of [`${running.url}/?filter=${filter}`, `${running.url}?filter=${filter}`]) {
      const reply = await fetch(url, { headers: auth });
      expect(reply.status, url).toBe(200);
      expect(reply.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      const body = (await reply.json()) as {
        totalResults: number;
        Resources: { id: string; meta: { resourceType: string; location: string } }[];
      };
      expect(body.totalResults).toBe(2);
      expect(body.Resources.map((r) => r.id)).toEqual(created.slice(0, 2));
      expect(body.Resources[0]?.meta.location).toBe(`${running.url}/Users/${created[0]}`);
      expect(body.Resources[0]?.meta.resourceType).toBe('User');
    }
  });

  it('POST /.search pages across the whole result', async () => {
    const reply = await fetch(`${running.url}/.search`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ schemas: [SEARCH], startIndex: 2, count: 1, sortBy: 'userName' }),
    });
    expect(reply.status).toBe(200);
    const body = (await reply.json()) as {
      totalResults: number;
      Resources: { userName: string }[];
    };
    expect(body.totalResults).toBe(3);
    expect(body.Resources.map((r) => r.userName)).toEqual(['root-a@example.org']);
  });

  it('answers 405 for other methods at the root and 400 for a cursor', async () => {
    const deleted = await fetch(`${running.url}/`, { method: 'DELETE', headers: auth });
    expect([deleted.status, deleted.headers.get('allow')]).toEqual([405, 'GET']);
    const cursor = await fetch(`${running.url}/?cursor=`, { headers: auth });
    expect(cursor.status).toBe(400);
    expect(((await cursor.json()) as { scimType: string }).scimType).toBe('invalidValue');
  });
});
