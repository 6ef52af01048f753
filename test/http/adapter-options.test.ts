import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import express4 from 'express4';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scimExpress } from '../../src/adapters/express/index.js';
import { scimFastify } from '../../src/adapters/fastify/index.js';
import { scimHono } from '../../src/adapters/hono/index.js';
import { type Echo, echoScim } from './echo-scim.js';
import { MOUNT, type RunningServer, targets } from './harness.js';

const MiB = 1024 * 1024;

async function post(
  url: string,
  body: string,
  contentType = 'application/scim+json',
): Promise<Echo> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Echo;
}

describe.each(targets)('$name adapter honours maxBodyBytes', (target) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await target.start(echoScim(), { maxBodyBytes: 64 * 1024 });
  });
  afterAll(() => server.close());

  it('reads a body within the limit whole and stops soon after the limit', async () => {
    expect((await post(`${server.url}/Users`, 'x'.repeat(64 * 1024))).bodyBytes).toBe(64 * 1024);
    const over = await post(`${server.url}/Users`, 'x'.repeat(2 * MiB));
    expect(over.bodyBytes).toBeGreaterThan(64 * 1024);
    expect(over.bodyBytes).toBeLessThan(MiB);
  });
});

describe.each(targets)('$name adapter follows the service limit by default', (target) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await target.start({ ...echoScim(), maxBodyBytes: 2 * MiB });
  });
  afterAll(() => server.close());

  it('reads a 1.5 MiB body whole when createScim allows 2 MiB', async () => {
    expect((await post(`${server.url}/Users`, 'x'.repeat(1.5 * MiB))).bodyBytes).toBe(1.5 * MiB);
  });
});

describe.each([
  ['express 5', express],
  ['express 4', express4],
] as const)('%s behind a host body parser', (_name, framework) => {
  let url: string;
  let close: () => void;
  beforeAll(async () => {
    const app = framework();
    app.use(framework.json({ type: ['application/json', 'application/scim+json'] }));
    app.use(MOUNT, scimExpress(echoScim()));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}${MOUNT}`;
    close = () => {
      server.close();
      server.closeAllConnections();
    };
  });
  afterAll(() => close());

  it('hands over the value the parser produced', async () => {
    const seen = await post(`${url}/Users`, '{"userName":"ada@example.org"}');
    expect(seen).toMatchObject({ bodyKind: 'object', bodyValue: { userName: 'ada@example.org' } });
  });

  it('reads the raw body itself when the parser skipped the media type', async () => {
    const seen = await post(`${url}/Users`, 'plain words', 'text/plain');
    expect(seen).toMatchObject({ bodyKind: 'bytes', bodyText: 'plain words' });
  });
});

describe('fastify adapter scope', () => {
  const app = Fastify({ forceCloseConnections: true });
  beforeAll(async () => {
    app.post('/host/echo', (request) => ({ parsed: request.body }));
    await app.register(scimFastify(echoScim()), { prefix: MOUNT });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it("leaves the host's own JSON parsing outside the plugin untouched", async () => {
    const origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const response = await fetch(`${origin}/host/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await response.json()).toEqual({ parsed: { a: 1 } });
    expect((await post(`${origin}${MOUNT}/Users`, '{"a":1}', 'application/json')).bodyText).toBe(
      '{"a":1}',
    );
  });
});

describe('hono adapter behind a middleware that read the body', () => {
  let origin: string;
  let close: () => void;
  beforeAll(async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      if (c.req.method === 'POST') await c.req.json();
      await next();
    });
    app.all(`${MOUNT}/*`, scimHono(echoScim()));
    const server = createAdaptorServer({ fetch: app.fetch }) as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => {
      server.close();
      server.closeAllConnections();
    };
  });
  afterAll(() => close());

  it("takes the body from Hono's cache", async () => {
    const seen = await post(`${origin}${MOUNT}/Users`, '{"userName": "ada@example.org"}');
    expect(seen).toMatchObject({ bodyText: '{"userName": "ada@example.org"}' });
  });
});
