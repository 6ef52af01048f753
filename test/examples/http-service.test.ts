import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_HTTP_TIMEOUTS,
  readConfig,
  type HttpTimeouts,
} from '../../examples/server/config.js';
import { BASE_PATH, startServer, type RunningServer } from '../../examples/server/server.js';
import { testConfig } from './test-config.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

function serve(httpTimeouts: Partial<HttpTimeouts> = {}): Promise<RunningServer> {
  return startServer(testConfig({ httpTimeouts: { ...DEFAULT_HTTP_TIMEOUTS, ...httpTimeouts } }), {
    print: () => undefined,
  });
}

/** A raw connection to the server: write bytes, read everything it answers until it closes. */
function open(running: RunningServer): Promise<{ socket: Socket; received: Promise<string> }> {
  const { port } = new URL(running.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const received = new Promise<string>((done) => socket.on('close', () => done(text)));
      resolve({ socket, received });
    });
    socket.on('error', reject);
  });
}

/** Whether a new connection to the server is accepted. */
function accepts(running: RunningServer): Promise<boolean> {
  return open(running).then(
    ({ socket }) => (socket.destroy(), true),
    () => false,
  );
}

const body = JSON.stringify({
  schemas: [USER_SCHEMA],
  userName: 'slow@example.org',
  active: false,
});
const head =
  `POST ${BASE_PATH}/Users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k1\r\n` +
  `Content-Type: application/scim+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;

describe('example server routing', () => {
  let running: RunningServer;
  beforeAll(async () => {
    running = await serve();
  });
  afterAll(() => running.close());

  it('routes an absolute-form request target like its origin form', async () => {
    const { origin } = new URL(running.url);
    for (const [target, status, text] of [
      [`${origin}${BASE_PATH}/Users?count=1`, '200', 'ListResponse'],
      [`http://another.example${BASE_PATH}/ServiceProviderConfig`, '200', 'ServiceProviderConfig'],
      [`${origin}/healthz`, '200', 'ok'],
      [`${origin}/nowhere`, '404', 'Not found'],
    ] as const) {
      const { socket, received } = await open(running);
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer k1\r\nConnection: close\r\n\r\n`,
      );
      const answer = await received;
      expect(answer.split('\r\n')[0]).toBe(
        `HTTP/1.1 ${status} ${status === '200' ? 'OK' : 'Not Found'}`,
      );
      expect(answer).toContain(text);
    }
  });
});

describe('example server time limits', () => {
  it('closes a connection whose headers or body do not arrive in time, with a 408', async () => {
    const running = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const started = Date.now();
      const slowHeaders = await open(running);
      slowHeaders.socket.write(`GET ${BASE_PATH}/Users HTTP/1.1\r\nHost: x\r\n`);
      const slowBody = await open(running);
      slowBody.socket.write(`${head}${body.slice(0, 10)}`);
      const [first, second] = await Promise.all([slowHeaders.received, slowBody.received]);
      expect(first).toMatch(/^HTTP\/1\.1 408/);
      expect(second).toMatch(/^HTTP\/1\.1 408/);
      // Limits are checked every 300 ms here (never less often than each second).
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await running.close();
    }
  });

  it('reads the limits from the environment, with documented defaults, and refuses nonsense', () => {
    expect(readConfig({}).httpTimeouts).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5_000,
      shutdownGraceMs: 10_000,
    });
    expect(readConfig({}).activationLinkTtlMs).toBe(7 * 24 * 3_600_000);
    expect(
      readConfig({
        SCIMKIT_REQUEST_TIMEOUT_MS: '5000',
        SCIMKIT_HEADERS_TIMEOUT_MS: '2000',
        SCIMKIT_KEEP_ALIVE_TIMEOUT_MS: '65000',
        SCIMKIT_SHUTDOWN_GRACE_MS: '0',
        SCIMKIT_ACTIVATION_LINK_TTL_HOURS: '24',
      }),
    ).toMatchObject({
      httpTimeouts: {
        requestTimeoutMs: 5000,
        headersTimeoutMs: 2000,
        keepAliveTimeoutMs: 65_000,
        shutdownGraceMs: 0,
      },
      activationLinkTtlMs: 24 * 3_600_000,
    });
    expect(() => readConfig({ SCIMKIT_HEADERS_TIMEOUT_MS: '60000' })).toThrow(
      /must not exceed SCIMKIT_REQUEST_TIMEOUT_MS/,
    );
    expect(() => readConfig({ SCIMKIT_REQUEST_TIMEOUT_MS: '0' })).toThrow(/at least 1/);
    expect(() => readConfig({ SCIMKIT_ACTIVATION_LINK_TTL_HOURS: 'week' })).toThrow(
      /SCIMKIT_ACTIVATION_LINK_TTL_HOURS/,
    );
  });
});

describe('example server shutdown', () => {
  it('stops accepting, lets the request in flight finish, then closes', async () => {
    const running = await serve();
    const idle = await open(running); // a keep-alive connection with nothing in flight
    const busy = await open(running);
    busy.socket.write(`${head}${body.slice(0, 10)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    let closed = false;
    const closing = running.close().then(() => (closed = true));
    await expect.poll(() => accepts(running)).toBe(false);
    expect(await idle.received).toBe(''); // closed at once, not waited for
    expect(closed).toBe(false);
    busy.socket.write(body.slice(10));
    const answer = await busy.received;
    expect(answer).toMatch(/^HTTP\/1\.1 201 Created/);
    expect(answer).toContain('slow@example.org');
    await closing;
  });

  it('waits for a stalled request no longer than the grace period', async () => {
    const running = await serve({ shutdownGraceMs: 300 });
    const stalled = await open(running);
    stalled.socket.write(`${head}${body.slice(0, 10)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    await stalled.received;
  });
});
