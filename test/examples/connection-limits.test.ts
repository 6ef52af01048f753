import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readConfig, type ConnectionLimits } from '../../examples/server/config.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import { ERROR_SCHEMA } from '../http/contract-client.js';
import { rawExchange } from '../http/raw-socket.js';
import { testConfig } from './test-config.js';

const keys = [
  { key: 'k1', tenant: 't1' },
  { key: 'k2', tenant: 't2' },
];

let running: RunningServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await running?.close();
  running = undefined;
});

async function serve(limits: Partial<ConnectionLimits>): Promise<RunningServer> {
  running = await startServer(
    testConfig({
      keys,
      connectionLimits: {
        maxConnections: 100,
        maxRequestsPerKey: 100,
        maxBufferedBodyBytes: 1024 * 1024,
        ...limits,
      },
    }),
    { print: () => undefined },
  );
  return running;
}

/** Opens a connection and waits until the server has it. */
async function opened(server: RunningServer): Promise<Socket> {
  const url = new URL(server.url);
  const accepted = new Promise((resolve) => server.server.once('connection', resolve));
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  socket.on('error', () => undefined);
  await accepted;
  return socket;
}

/** The head of a POST /Users with key `key` that announces a body it never sends. */
function stalledPost(server: RunningServer, key: string): string {
  const url = new URL(server.url);
  return (
    `POST ${url.pathname}/Users HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${key}\r\n` +
    'content-type: application/scim+json\r\ncontent-length: 100\r\n\r\n{"userName":'
  );
}

function getUsers(server: RunningServer, key: string): string {
  const url = new URL(server.url);
  return `GET ${url.pathname}/Users HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${key}\r\n\r\n`;
}

function expectRetryLater(exchange: Awaited<ReturnType<typeof rawExchange>>, status: number) {
  expect(exchange.status).toBe(status);
  expect(exchange.headers['retry-after']).toBe('1');
  expect(exchange.headers.connection).toBe('close');
  expect(exchange.headers['content-type']).toMatch(/^application\/scim\+json/);
  const body = JSON.parse(exchange.body) as { schemas: string[]; status: string; detail: string };
  expect(body).toMatchObject({ schemas: [ERROR_SCHEMA], status: String(status) });
  expect(body.detail).toMatch(/send the request again/);
  expect(exchange.closedByServer).toBe(true);
}

function expectBusy(exchange: Awaited<ReturnType<typeof rawExchange>>) {
  expect(exchange.status).toBe(503);
  expect(exchange.headers['retry-after']).toBe('1');
  expect(exchange.closedByServer).toBe(true);
}

describe('example server connection limits', () => {
  it('answers the connection past the cap with 503 and Retry-After, and serves again below it', async () => {
    const server = await serve({ maxConnections: 3 });
    const held = [await opened(server), await opened(server), await opened(server)];
    const origin = new URL(server.url).origin;
    expectRetryLater(
      await rawExchange(origin, { request: getUsers(server, 'k1'), waitMs: 5000 }),
      503,
    );
    held[0]?.destroy();
    await new Promise((resolve) => held[0]?.once('close', resolve));
    await expect
      .poll(
        async () =>
          (await rawExchange(origin, { request: getUsers(server, 'k1'), waitMs: 500 })).status,
      )
      .toBe(200);
  });

  it('answers the request past the per-key cap with 429 and Retry-After, other keys unaffected', async () => {
    const server = await serve({ maxRequestsPerKey: 2 });
    const stalled = [await opened(server), await opened(server)];
    for (const socket of stalled) socket.write(stalledPost(server, 'k1'));
    const origin = new URL(server.url).origin;
    // Both stalled uploads are in flight once a third request of k1 is refused.
    await expect
      .poll(
        async () =>
          (await rawExchange(origin, { request: getUsers(server, 'k1'), waitMs: 2000 })).status,
      )
      .toBe(429);
    expectRetryLater(
      await rawExchange(origin, { request: getUsers(server, 'k1'), waitMs: 5000 }),
      429,
    );
    expect(
      (await rawExchange(origin, { request: getUsers(server, 'k2'), waitMs: 500 })).status,
    ).toBe(200);
    // A request that ends gives its place back.
    stalled[0]?.destroy();
    await expect
      .poll(
        async () =>
          (await rawExchange(origin, { request: getUsers(server, 'k1'), waitMs: 500 })).status,
      )
      .toBe(200);
  });

  it('refuses a stalled upload past the buffered-bytes budget with 503 instead of holding it', async () => {
    const server = await serve({ maxBufferedBodyBytes: 150 * 1024 });
    const url = new URL(server.url);
    const upload =
      `POST ${url.pathname}/Users HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer k1\r\n` +
      `content-type: application/scim+json\r\ncontent-length: ${1024 * 1024}\r\n\r\n` +
      'x'.repeat(100 * 1024);
    const first = await opened(server);
    first.write(upload);
    // The first upload holds 100 KiB of the 150 KiB: the next one finds no room.
    await expect
      .poll(async () => (await rawExchange(url.origin, { request: upload, waitMs: 3000 })).status)
      .toBe(503);
    expectBusy(await rawExchange(url.origin, { request: upload, waitMs: 3000 }));
  });

  it('reads the limits from the environment, with documented defaults', () => {
    expect(readConfig({}).connectionLimits).toEqual({
      maxConnections: 512,
      maxRequestsPerKey: 32,
      maxBufferedBodyBytes: 64 * 1024 * 1024,
    });
    expect(readConfig({}).consoleLimits).toEqual({
      bodyBytes: 16 * 1024,
      tenantBytes: 8 * 1024 * 1024,
      totalBytes: 32 * 1024 * 1024,
      pageBytes: 2 * 1024 * 1024,
    });
    expect(
      readConfig({
        SCIMKIT_MAX_CONNECTIONS: '10',
        SCIMKIT_MAX_REQUESTS_PER_KEY: '2',
        SCIMKIT_MAX_BUFFERED_BODY_BYTES: '1000',
        SCIMKIT_CONSOLE_BODY_BYTES: '100',
        SCIMKIT_CONSOLE_TENANT_BYTES: '200',
        SCIMKIT_CONSOLE_TOTAL_BYTES: '300',
        SCIMKIT_CONSOLE_PAGE_BYTES: '400',
      }),
    ).toMatchObject({
      connectionLimits: { maxConnections: 10, maxRequestsPerKey: 2, maxBufferedBodyBytes: 1000 },
      consoleLimits: { bodyBytes: 100, tenantBytes: 200, totalBytes: 300, pageBytes: 400 },
    });
    expect(() => readConfig({ SCIMKIT_MAX_CONNECTIONS: '0' })).toThrow(/at least 1/);
  });
});
