// The host's `rateLimit` hook and `/Bulk`: each operation is asked about as if sent alone
// (docs/bulk.md, "Rate limits").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys, type RateLimitVerdict, type Scim } from '../../src/index.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { ERROR_SCHEMA, ScimClient, USER_SCHEMA } from './contract-client.js';
import { type RunningServer, targets } from './harness.js';

const KEY = 'key-bulk-limit';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';

/** A bucket of tokens per tenant, as a host's limiter keeps one; each call takes one token. */
class Bucket {
  tokens = Infinity;
  readonly asked: { method: string; path: string }[] = [];
  take = (_tenant: unknown, request: { method: string; path: string }): RateLimitVerdict => {
    this.asked.push({ method: request.method, path: request.path });
    if (this.tokens <= 0) return { retryAfterSeconds: 1.5 };
    this.tokens--;
    return true;
  };
}

const creates = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    method: 'POST',
    path: '/Users',
    bulkId: `u${i}`,
    data: { schemas: [USER_SCHEMA], userName: `${tag}-${i}@example.org` },
  }));

describe.each(everyStore)('/Bulk and rateLimit on $name', ({ open }) => {
  const bucket = new Bucket();
  let opened: OpenedStore;
  let scim: Scim;
  let server: RunningServer;
  let client: ScimClient;
  beforeAll(async () => {
    opened = await open();
    scim = createScim({
      store: opened.store,
      verifier: staticApiKeys([{ key: KEY, tenant: 'district-5' }]),
      mailer: { sendWelcome: () => Promise.resolve() },
      basePath: '/api/v1/scim/v2',
      rateLimit: bucket.take,
    });
    server = await targets.find((t) => t.name === 'node:http')!.start(scim);
    client = new ScimClient(() => server.url, KEY);
  });
  afterAll(async () => {
    await server.close();
    await scim.close();
    await opened.close();
  });

  const bulk = (operations: unknown[], failOnErrors?: number) => ({
    schemas: [BULK],
    Operations: operations,
    ...(failOnErrors ? { failOnErrors } : {}),
  });
  // Sends a /Bulk with `tokens` in the bucket, then fills it again for the checks that follow.
  const send = async (body: object, tokens: number) => {
    bucket.tokens = tokens;
    bucket.asked.length = 0;
    const reply = await client.send('POST', '/Bulk', { body });
    bucket.tokens = Infinity;
    return reply;
  };

  it('asks about every operation, with its own method and path, after the request itself', async () => {
    const reply = await send(bulk(creates('each', 100)), Infinity);
    expect(reply.status).toBe(200);
    // One call for the /Bulk request (before its body is read), then one per operation.
    expect(bucket.asked).toHaveLength(101);
    expect(bucket.asked[0]).toEqual({ method: 'POST', path: '/api/v1/scim/v2/Bulk' });
    expect(bucket.asked.slice(1).every((a) => a.path === '/api/v1/scim/v2/Users')).toBe(true);
  });

  it('answers 429 inside the BulkResponse for each operation refused, and writes none of them', async () => {
    // The request and three operations fit in the bucket; the fourth and fifth do not.
    const reply = await send(bulk(creates('some', 5)), 4);
    expect(reply.status).toBe(200);
    const operations = reply.json?.Operations as Record<string, unknown>[];
    expect(operations.map((o) => o.status)).toEqual(['201', '201', '201', '429', '429']);
    expect(operations[3]).toMatchObject({ bulkId: 'u3', method: 'POST' });
    expect(operations[3]?.location).toBeUndefined();
    expect(operations[3]?.response).toMatchObject({
      schemas: [ERROR_SCHEMA],
      status: '429',
      detail: expect.stringContaining('try again in 2 seconds'),
    });
    for (const [i, written] of [0, 1, 2, 3, 4].map((i) => [i, i < 3] as const))
      expect(await client.countByUserName(`some-${i}@example.org`)).toBe(written ? 1 : 0);
  });

  it('counts a refused operation against failOnErrors: nothing after it runs', async () => {
    const reply = await send(bulk(creates('stop', 4), 1), 2);
    const operations = reply.json?.Operations as Record<string, unknown>[];
    expect(operations.map((o) => o.status)).toEqual(['201', '429']);
    // The operations after the failure were neither run nor asked about.
    expect(bucket.asked).toHaveLength(3);
    expect(await client.countByUserName('stop-2@example.org')).toBe(0);
  });

  it('answers 429 to the whole request, running nothing, when the request itself is refused', async () => {
    const reply = await send(bulk(creates('none', 3)), 0);
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('2');
    expect(bucket.asked).toHaveLength(1);
    expect(await client.countByUserName('none-0@example.org')).toBe(0);
  });
});
