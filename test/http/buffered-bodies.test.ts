import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { ERROR_SCHEMA } from './contract-client.js';
import { MOUNT, type RunningServer, targets } from './harness.js';
import { rawExchange } from './raw-socket.js';

const KEY = 'key-buffered';
const KiB = 1024;
const BUDGET = 256 * KiB;
const STALLED = 6;

const scim = createScim({
  store: new MemoryUserStore(),
  verifier: staticApiKeys([{ key: KEY, tenant: 'district-9' }]),
  mailer: { sendWelcome: () => Promise.resolve() },
  basePath: MOUNT,
  bodyTimeoutMs: 1_500,
});
afterAll(() => scim.close());

// An authenticated POST that announces 1 MiB, sends 100 KiB of it, then stalls.
function stalledUpload(origin: string): string {
  const host = origin.slice('http://'.length);
  return (
    `POST ${MOUNT}/Users HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${KEY}\r\n` +
    `content-type: application/scim+json\r\ncontent-length: ${1024 * KiB}\r\n\r\n` +
    'x'.repeat(100 * KiB)
  );
}

describe.each(targets)('$name: the bytes of bodies being read are bounded', (target) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await target.start(scim, { maxBufferedBodyBytes: BUDGET });
  });
  afterAll(() => server.close());

  it('refuses stalled uploads past the budget with 503 and Retry-After, and closes them', async () => {
    const exchanges = await Promise.all(
      Array.from({ length: STALLED }, () =>
        rawExchange(server.origin, { request: stalledUpload(server.origin), waitMs: 10_000 }),
      ),
    );
    const busy = exchanges.filter((e) => e.status === 503);
    // 256 KiB holds two of the 100 KiB prefixes; every other upload finds no room.
    expect(busy.length).toBeGreaterThanOrEqual(STALLED - Math.floor(BUDGET / (100 * KiB)));
    for (const exchange of exchanges) expect([503, 408]).toContain(exchange.status);
    for (const exchange of busy) {
      expect(exchange.headers['retry-after']).toBe('1');
      expect(exchange.headers.connection).toBe('close');
      expect(exchange.closedByServer).toBe(true);
      expect(JSON.parse(exchange.body)).toMatchObject({
        schemas: [ERROR_SCHEMA],
        status: '503',
        detail: expect.stringContaining('send this request again') as unknown,
      });
    }
  });

  it('gives the room back: a request after the stalled ones is served', async () => {
    const response = await fetch(`${server.url}/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: `after-${target.name}@example.org`,
        title: 'y'.repeat(200 * KiB),
      }),
    });
    expect(response.status).toBe(201);
  });
});
