import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { describe, expect, it } from 'vitest';
import * as expressExample from '../../examples/express/main.js';
import * as fastifyExample from '../../examples/fastify/main.js';
import * as fetchExample from '../../examples/fetch/main.js';
import * as honoExample from '../../examples/hono/main.js';
import * as nodeExample from '../../examples/node/main.js';
import { MOUNT } from './harness.js';

function listen(server: Server): Promise<{ origin: string; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}

const examples = [
  { name: 'express', start: () => listen(createServer(expressExample.app)) },
  {
    name: 'fastify',
    start: async () => {
      const origin = await fastifyExample.app.listen({ port: 0, host: '127.0.0.1' });
      return { origin, close: () => fastifyExample.app.close() };
    },
  },
  {
    name: 'hono',
    start: () => listen(createAdaptorServer({ fetch: honoExample.app.fetch }) as Server),
  },
  {
    name: 'fetch',
    start: () => listen(createAdaptorServer({ fetch: fetchExample.default.fetch }) as Server),
  },
  { name: 'node', start: () => listen(nodeExample.server) },
];

describe.each(examples)('examples/$name/main.ts', ({ start }) => {
  it('serves SCIM at /api/v1/scim/v2 with the development key', async () => {
    const { origin, close } = await start();
    try {
      const headers = { authorization: 'Bearer dev-key', 'content-type': 'application/scim+json' };
      const created = await fetch(`${origin}${MOUNT}/Users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: 'ada@example.org',
        }),
      });
      expect(created.status).toBe(201);
      const location = created.headers.get('location') ?? '';
      expect(location.startsWith(`${origin}${MOUNT}/Users/`)).toBe(true);
      const read = await fetch(location, { headers });
      expect(((await read.json()) as { userName: string }).userName).toBe('ada@example.org');
    } finally {
      await close();
    }
  });
});
