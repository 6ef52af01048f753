import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys, type ScimRequest } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { ERROR_SCHEMA, USER_SCHEMA } from './contract-client.js';
import { MOUNT, type RunningServer, targets } from './harness.js';
import { LINGER_MS } from '../../src/internal/close-in-stages.js';
import { chunkOf, type RawExchange, rawExchange, uploadPastAnswer } from './raw-socket.js';

const KEY = 'key-transport';
const MiB = 1024 * 1024;
// Loopback socket buffers hold a few MiB; a server that stops reading lets no more than that in.
const READ_BOUND = 32 * MiB;
const BODY_TIMEOUT_MS = 400;

let contextFails = false;
const reported: { error: unknown; request: ScimRequest | undefined }[] = [];
const limited: string[] = [];
const scim = createScim({
  store: new MemoryUserStore(),
  verifier: staticApiKeys([{ key: KEY, tenant: 'district-9' }]),
  mailer: { sendWelcome: () => Promise.resolve() },
  basePath: MOUNT,
  bodyTimeoutMs: BODY_TIMEOUT_MS,
  onError: (error, request) => reported.push({ error, request }),
  rateLimit: (tenant, request) => {
    if (request.headers['x-test-limit'] === undefined) return true;
    limited.push(tenant.id);
    return request.headers['x-test-limit'] === 'plain' ? false : { retryAfterSeconds: 6.2 };
  },
});
afterAll(() => scim.close());

function head(
  method: string,
  path: string,
  origin: string,
  headers: Record<string, string | number>,
): string {
  const host = origin.slice('http://'.length);
  const lines = Object.entries({ host, ...headers }).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

// The head of a POST /Users whose chunked body never ends.
function endlessUpload(origin: string, auth: Record<string, string> = {}): string {
  return head('POST', `${MOUNT}/Users`, origin, {
    ...auth,
    'content-type': 'application/scim+json',
    'transfer-encoding': 'chunked',
  });
}

function expectRawScimError(
  exchange: Pick<RawExchange, 'status' | 'headers' | 'body'>,
  status: number,
): void {
  expect(exchange.status).toBe(status);
  expect(exchange.headers['content-type']).toMatch(/^application\/scim\+json/);
  expect(JSON.parse(exchange.body)).toMatchObject({ schemas: [ERROR_SCHEMA], status: `${status}` });
}

describe.each(targets)('$name: no client holds the server', (target) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await target.start(scim, {
      context: () => {
        if (contextFails) throw new Error('host secret: db password in a stack');
        return { fine: true };
      },
    });
  });
  afterAll(() => server.close());

  it('answers 401 to a request that declares a 1 MiB body, without waiting for it, and closes', async () => {
    const exchange = await rawExchange(server.origin, {
      request: head('POST', `${MOUNT}/Users`, server.origin, {
        'content-type': 'application/scim+json',
        'content-length': MiB,
      }),
      waitMs: 10_000,
    });
    expectRawScimError(exchange, 401);
    expect(exchange.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(exchange.headers.connection).toBe('close');
    expect(exchange.closedByServer).toBe(true);
  });

  it.each([
    [401, {}],
    [413, { authorization: `Bearer ${KEY}` }],
  ])(
    'closes the connection after a %i to an endless chunked body, having taken a bounded amount',
    async (status, auth) => {
      const exchange = await rawExchange(server.origin, {
        request: endlessUpload(server.origin, auth),
        repeat: chunkOf(64 * 1024),
        waitMs: 10_000,
      });
      expectRawScimError(exchange, status);
      expect(exchange.headers.connection).toBe('close');
      expect(exchange.closedByServer).toBe(true);
      expect(exchange.repeatedBytes).toBeLessThan(READ_BOUND);
    },
  );

  // RFC 9112 §9.6: closed at once over an unread upload, the socket sends a reset, and a client
  // still writing fails its next write (EPIPE) and loses the answer it had not read.
  it.each([
    [401, {}],
    [413, { authorization: `Bearer ${KEY}` }],
  ])(
    'reads the rest of the upload after a %i, so a client still writing reads it and closes cleanly',
    async (status, auth) => {
      const upload = await uploadPastAnswer(server.origin, {
        request: endlessUpload(server.origin, auth),
        repeat: chunkOf(64 * 1024),
        afterEnd: MiB,
        waitMs: 10_000,
      });
      expectRawScimError(upload, status);
      expect(upload.headers.connection).toBe('close');
      expect(upload.answeredWithEnd).toBe(true);
      expect(upload.bytesAfterEnd).toBeGreaterThanOrEqual(MiB);
      expect(upload.errorCode).toBeUndefined();
      expect(upload.closed).toBe(true);
    },
  );

  it('cuts off a client that goes on uploading after the answer, having taken a bounded amount', async () => {
    const upload = await uploadPastAnswer(server.origin, {
      request: endlessUpload(server.origin),
      repeat: chunkOf(64 * 1024),
      afterEnd: 'until-closed',
      waitMs: 10_000,
    });
    expectRawScimError(upload, 401);
    expect(upload.closed).toBe(true);
    expect(upload.bytesAfterEnd).toBeLessThan(READ_BOUND);
  });

  it('answers 413 from a Content-Length over the limit before any body arrives', async () => {
    const exchange = await rawExchange(server.origin, {
      request: head('POST', `${MOUNT}/Users`, server.origin, {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/scim+json',
        'content-length': 2 * MiB,
      }),
      waitMs: 10_000,
    });
    expectRawScimError(exchange, 413);
    expect(exchange.closedByServer).toBe(true);
  });

  it('answers 415 from the Content-Type before any body arrives', async () => {
    const exchange = await rawExchange(server.origin, {
      request: head('POST', `${MOUNT}/Users`, server.origin, {
        authorization: `Bearer ${KEY}`,
        'content-type': 'text/plain',
        'content-length': 1000,
      }),
      waitMs: 10_000,
    });
    expectRawScimError(exchange, 415);
    expect(exchange.closedByServer).toBe(true);
  });

  it('answers a malformed Content-Type with the SCIM 401, then 415, of every adapter', async () => {
    const send = (headers: Record<string, string>) =>
      fetch(`${server.url}/Users`, { method: 'POST', headers, body: '{}' });
    const anonymous = await send({ 'content-type': 'garbage' });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ schemas: [ERROR_SCHEMA] });
    const garbage = await send({ authorization: `Bearer ${KEY}`, 'content-type': 'garbage' });
    expect(garbage.status).toBe(415);
    expect(await garbage.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '415' });
    // An empty Content-Type counts as none: the body is read as JSON, like everywhere else.
    const empty = await send({ authorization: `Bearer ${KEY}`, 'content-type': '' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      schemas: [ERROR_SCHEMA],
      scimType: 'invalidSyntax',
    });
  });

  it('answers 408 to a body that stalls, after the body timeout, and closes', async () => {
    const exchange = await rawExchange(server.origin, {
      request:
        head('POST', `${MOUNT}/Users`, server.origin, {
          authorization: `Bearer ${KEY}`,
          'content-type': 'application/scim+json',
          'content-length': 100,
        }) + '{"userName":',
      waitMs: 10_000,
    });
    expectRawScimError(exchange, 408);
    expect(exchange.closedByServer).toBe(true);
    expect(exchange.ms).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
  });

  it('holds no connection open for 100 stalled clients without an API key', async () => {
    const exchanges = await Promise.all(
      Array.from({ length: 100 }, () =>
        rawExchange(server.origin, {
          request:
            head('POST', `${MOUNT}/Users`, server.origin, {
              'content-type': 'application/scim+json',
              'content-length': MiB,
            }) + 'x'.repeat(1024),
          waitMs: 15_000,
        }),
      ),
    );
    for (const exchange of exchanges) {
      expect(exchange.status).toBe(401);
      expect(exchange.closedByServer).toBe(true);
    }
  });

  it('keeps the connection open after an answer to a body read in full', async () => {
    const response = await fetch(`${server.url}/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: [USER_SCHEMA],
        userName: `keep.${target.name.replace(/[^a-z0-9]/g, '')}@x.org`,
      }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('connection')).not.toBe('close');
  });

  it.each(['GET', 'POST'])(
    'answers %s with a SCIM 500 when the host context() throws, and tells onError',
    async (method) => {
      reported.length = 0;
      contextFails = true;
      try {
        const response = await fetch(`${server.url}/Users`, {
          method,
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' },
          ...(method === 'POST' ? { body: JSON.stringify({ schemas: [USER_SCHEMA] }) } : {}),
        });
        expect(response.status).toBe(500);
        expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
        const text = await response.text();
        expect(JSON.parse(text)).toMatchObject({ schemas: [ERROR_SCHEMA], status: '500' });
        expect(text).not.toContain('host secret');
      } finally {
        contextFails = false;
      }
      expect(reported).toHaveLength(1);
      expect((reported[0]?.error as Error).message).toContain('host secret');
      expect(reported[0]?.request?.path).toBe(`${MOUNT}/Users`);
    },
  );

  it('answers 429 with Retry-After when the rate-limit hook refuses', async () => {
    limited.length = 0;
    const refused = await fetch(`${server.url}/Users`, {
      headers: { authorization: `Bearer ${KEY}`, 'x-test-limit': 'later' },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(await refused.json()).toMatchObject({ schemas: [ERROR_SCHEMA], status: '429' });
    const plain = await fetch(`${server.url}/Users`, {
      headers: { authorization: `Bearer ${KEY}`, 'x-test-limit': 'plain' },
    });
    expect(plain.status).toBe(429);
    expect(plain.headers.get('retry-after')).toBeNull();
    expect(limited).toEqual(['district-9', 'district-9']);
    // Not consulted before authentication: an unknown key is a 401, never a 429.
    const anonymous = await fetch(`${server.url}/Users`, { headers: { 'x-test-limit': 'x' } });
    expect(anonymous.status).toBe(401);
    expect(limited).toHaveLength(2);
  });

  it('routes an absolute-form request target like its path', async () => {
    const exchange = await rawExchange(server.origin, {
      request: head('GET', `${server.origin}${MOUNT}/Users?count=1`, server.origin, {
        authorization: `Bearer ${KEY}`,
        connection: 'close',
      }),
      waitMs: 10_000,
    });
    expect(exchange.status).toBe(200);
    expect(JSON.parse(exchange.body)).toMatchObject({ itemsPerPage: expect.any(Number) });
  });
});

describe('closing in stages: the time bound', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const node = targets.find((target) => target.name === 'node:http');
    server = await node!.start(scim);
  });
  afterAll(() => server.close());

  it('cuts off a client that trickles on after the answer once the linger time has passed', async () => {
    const upload = await uploadPastAnswer(server.origin, {
      request: endlessUpload(server.origin),
      repeat: chunkOf(1024),
      afterEnd: 'until-closed',
      afterEndEveryMs: 50,
      waitMs: 10_000,
    });
    expectRawScimError(upload, 401);
    // Closed before the client's 10 s, and not before the linger time.
    expect(upload.closed).toBe(true);
    expect(upload.msAfterEnd).toBeGreaterThanOrEqual(LINGER_MS - 100);
  });
});
