import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestCompletedEvent } from '../../../src/index.js';
import { exampleStores } from '../../../test/examples/example-stores.js';
import { testConfig } from '../../../test/examples/test-config.js';
import { startServer, type RunningServer } from '../server.js';
import type { ConsoleLimits } from './console-limits.js';
import { RequestLog } from './request-log.js';

const KIB = 1024;

const hugeEvent = (tenant: string, bytes: number) =>
  ({
    type: 'request.completed',
    tenant,
    status: 400,
    method: 'POST',
    path: '/Users',
    at: '',
    latencyMs: 1,
    body: { userName: 'x'.repeat(bytes) },
    before: { id: 'u', title: 'b'.repeat(bytes) },
    after: { id: 'u', title: 'a'.repeat(bytes) },
    normalisations: [],
    rulesFired: [],
  }) as unknown as RequestCompletedEvent;

describe('console request log budgets', () => {
  const limits: ConsoleLimits = {
    bodyBytes: 4 * KIB,
    tenantBytes: 40 * KIB,
    totalBytes: 100 * KIB,
    pageBytes: 64 * KIB,
  };

  it('keeps every tenant under its budget and all under the total, newest kept', () => {
    const log = new RequestLog(limits);
    for (let i = 0; i < 300; i++) log.record(hugeEvent(`t${i % 5}`, 200 * KIB));
    expect(log.bytes).toBeLessThanOrEqual(limits.totalBytes);
    const kept = ['t0', 't1', 't2', 't3', 't4'].map((t) => log.list(t));
    for (const entries of kept) {
      const bytes = entries.reduce((sum, e) => sum + e.bytes, 0);
      expect(bytes).toBeLessThanOrEqual(limits.tenantBytes);
    }
    // The oldest go first: the newest request (the 300th, tenant t4) is still there.
    expect(kept[4]?.[0]?.seq).toBe(300);
    const body = kept[4]?.[0]?.view().body;
    expect(body?.clipped).toBe(true);
    expect(body?.bytes).toBeGreaterThan(200 * KIB);
    expect(Buffer.byteLength(body?.text ?? '')).toBeLessThanOrEqual(limits.bodyBytes);
  });
});

describe('console request log, small requests kept as their events', () => {
  it('counts what a kept event holds, so the budgets hold for them too', () => {
    const limits: ConsoleLimits = {
      bodyBytes: 16 * KIB,
      tenantBytes: 64 * KIB,
      totalBytes: 96 * KIB,
      pageBytes: 64 * KIB,
    };
    const log = new RequestLog(limits);
    const user = (n: number) => ({ id: 'u', title: 'x'.repeat(n) });
    for (let i = 0; i < 200; i++) {
      const event = {
        ...hugeEvent(`t${i % 2}`, 0),
        status: 200,
        method: 'PATCH',
        body: { Operations: [] },
        bodyBytes: 2 * KIB,
        before: user(4 * KIB),
        after: user(4 * KIB),
      } as unknown as RequestCompletedEvent;
      log.record(event);
    }
    expect(log.bytes).toBeLessThanOrEqual(limits.totalBytes);
    // Each holds its body four times over and both users: about 17 KiB, so few fit.
    expect(log.list('t0').length + log.list('t1').length).toBeLessThan(10);
    expect(log.list('t1')[0]?.seq).toBe(200);
  });
});

describe.each(exampleStores('console_bounds'))('console memory on $name', (store) => {
  const limits: ConsoleLimits = {
    bodyBytes: 1 * KIB,
    tenantBytes: 64 * KIB,
    totalBytes: 96 * KIB,
    pageBytes: 16 * KIB,
  };
  let running: RunningServer;
  beforeAll(async () => {
    if (store.skip) return;
    running = await startServer(
      testConfig({ store: store.config(), userNameRule: 'rfc', consoleLimits: limits }),
      { print: () => undefined },
    );
  }, 60_000);
  afterAll(() => running?.close());

  const headers = { authorization: 'Bearer k1', 'content-type': 'application/scim+json' };

  it.skipIf(store.skip)(
    'clips huge bodies, shows their size, and renders a page of bounded size',
    async () => {
      const created = await fetch(`${running.url}/Users`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
          userName: 'big@example.org',
          title: 't'.repeat(300 * KIB),
        }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: string };
      for (let i = 0; i < 10; i++) {
        const patched = await fetch(`${running.url}/Users/${id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({
            schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
            Operations: [{ op: 'replace', path: 'title', value: `${i}`.repeat(200 * KIB) }],
          }),
        });
        expect(patched.status).toBe(200);
        const refused = await fetch(`${running.url}/Users`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ schemas: ['urn:bad'], userName: 'r'.repeat(700 * KIB) }),
        });
        expect(refused.status).toBe(400);
        await refused.arrayBuffer();
      }
      const page = await fetch(running.consoleUrl, { headers: { authorization: 'Bearer k1' } });
      const text = await page.text();
      // The log part stays within pageBytes; the rest of the page is a few KiB of markup.
      expect(Buffer.byteLength(text)).toBeLessThan(limits.pageBytes + 16 * KIB);
      expect(text).toMatch(/… 7\d\d,\d{3} bytes, first 1 KiB shown/);
      expect(text).toContain('older requests not shown');
      const live = await fetch(`${running.consoleUrl}/live`, {
        headers: { authorization: 'Bearer k1' },
      });
      const parts = (await live.json()) as { log: string };
      expect(Buffer.byteLength(parts.log)).toBeLessThanOrEqual(limits.pageBytes + 256);
    },
    120_000,
  );
});
