// The webhook handler against a real node:http server on 127.0.0.1 that answers 200, 500, a
// redirect, or nothing at all. Every wait is bounded: the server closes every connection after
// the tests, and a hanging answer ends by the attempt's signal or its timeout.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DirectoryEvent } from '../../src/contracts/event-log.js';
import {
  generateWebhookSecret,
  ScimConfigError,
  WEBHOOK_RETRY,
  WebhookDeliveryError,
  webhookSubscriber,
  type WebhookEndpoint,
} from '../../src/index.js';

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

const secret = generateWebhookSecret();
const event: DirectoryEvent & { cursor: string } = {
  id: '01jd7k3h5m0000000000000000',
  type: 'user.deactivated',
  tenant: 'district-42',
  occurredAt: '2026-01-31T12:00:00.000Z',
  cursor: 'c1',
  data: { id: 'u1', resourceType: 'User', resource: { id: 'u1', userName: 'ada@example.org' } },
};

let server: Server;
let base: string;
let received: Received[] = [];
/** Resolves the next time the server receives a request on /hang. */
let hung: () => void = () => undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body });
      const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      if (path === '/ok') return void res.writeHead(204).end();
      if (path === '/fail')
        return void res.writeHead(500, { 'content-type': 'text/plain' }).end('database\ndown');
      if (path === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
      if (path === '/hang') return hung();
      res.writeHead(404).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await once(server, 'close');
});
beforeEach(() => {
  received = [];
});

const endpoint = (path: string): WebhookEndpoint => ({ url: `${base}${path}`, secrets: [secret] });
const attempt = (n = 1) => ({ signal: new AbortController().signal, attempt: n });

describe('webhookSubscriber', () => {
  it('POSTs the event as JSON, signed so the reference verifier accepts it, and resolves on 2xx', async () => {
    const handler = webhookSubscriber({ endpoint: endpoint('/ok') });
    await handler(event, attempt());
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['webhook-id']).toBe(event.id);
    const headers = Object.fromEntries(
      Object.entries(request?.headers ?? {}).map(([k, v]) => [k, String(v)]),
    );
    expect(new Webhook(secret).verify(request?.body ?? '', headers)).toEqual(event);
  });

  it('sends every retry with the same webhook-id and body, so the receiver can drop a repeat', async () => {
    const handler = webhookSubscriber({ endpoint: endpoint('/ok') });
    await handler(event, attempt(1));
    await handler(event, attempt(2));
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
    expect(received[1]?.body).toBe(received[0]?.body);
  });

  it('fails the attempt on a 500, quoting the start of the answer', async () => {
    const handler = webhookSubscriber({ endpoint: endpoint('/fail') });
    const failure = await handler(event, attempt()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WebhookDeliveryError);
    expect((failure as WebhookDeliveryError).status).toBe(500);
    expect((failure as Error).message).toBe(`${base} answered 500: database down.`);
  });

  it('fails the attempt on a redirect and never follows it', async () => {
    const handler = webhookSubscriber({ endpoint: endpoint('/redirect') });
    const failure = await handler(event, attempt()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WebhookDeliveryError);
    expect((failure as WebhookDeliveryError).status).toBe(302);
    expect((failure as Error).message).toMatch(/redirects are not followed/);
    expect(received.map((r) => r.path)).toEqual(['/redirect']);
  });

  it('gives up on an endpoint that does not answer when the runner aborts the attempt', async () => {
    const runner = new AbortController();
    hung = () => runner.abort(new Error('the attempt timed out in the runner'));
    const handler = webhookSubscriber({ endpoint: endpoint('/hang') });
    await expect(handler(event, { signal: runner.signal, attempt: 1 })).rejects.toThrow(
      'the attempt timed out in the runner',
    );
    expect(received.map((r) => r.path)).toEqual(['/hang']);
  });

  it('gives up on an endpoint that does not answer within its own timeoutMs', async () => {
    hung = () => undefined;
    const handler = webhookSubscriber({ endpoint: endpoint('/hang'), timeoutMs: 200 });
    const failure = await handler(event, attempt()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(WebhookDeliveryError);
    expect((failure as Error).message).toBe(`${base} did not answer within 200 ms.`);
  });

  it('fails the attempt when nothing listens at the endpoint', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, 'close');
    const handler = webhookSubscriber({
      endpoint: { url: `http://127.0.0.1:${port}/`, secrets: [secret] },
    });
    await expect(handler(event, attempt())).rejects.toThrow(/could not be reached: ECONNREFUSED/);
  });

  it('refuses at start an endpoint that is not https outside loopback, and a bad timeout', () => {
    expect(() =>
      webhookSubscriber({ endpoint: { url: 'http://app.example.org/hooks', secrets: [secret] } }),
    ).toThrow(ScimConfigError);
    expect(() =>
      webhookSubscriber({ endpoint: { url: 'https://app.example.org/', secrets: ['nope'] } }),
    ).toThrow(ScimConfigError);
    for (const timeoutMs of [0, -1, 1.5, Number.NaN, 10 * 60_000])
      expect(() => webhookSubscriber({ endpoint: endpoint('/ok'), timeoutMs })).toThrow(
        ScimConfigError,
      );
  });

  it('sends each tenant to its own endpoint, passes over a tenant without one, and fails on a bad one', async () => {
    const endpoints: Record<string, WebhookEndpoint> = {
      a: endpoint('/ok?tenant=a'),
      insecure: { url: 'http://app.example.org/hooks', secrets: [secret] },
    };
    const handler = webhookSubscriber({ endpoint: async (tenant) => endpoints[tenant] });
    await handler({ ...event, tenant: 'a' }, attempt());
    await handler({ ...event, tenant: 'none' }, attempt());
    await expect(handler({ ...event, tenant: 'insecure' }, attempt())).rejects.toThrow(
      /endpoint of tenant "insecure": the webhook URL must be https:/,
    );
    expect(received.map((r) => r.path)).toEqual(['/ok?tenant=a']);
  });
});

describe('WEBHOOK_RETRY', () => {
  it('spans at least 24 hours between the first and the last attempt, even with every wait halved by jitter', () => {
    // The subscriber runner waits min(initialMs * 2^(n-1), maxMs) before retry n, jittered.
    const { maxAttempts, backoff } = WEBHOOK_RETRY;
    let span = 0;
    for (let retry = 1; retry < maxAttempts; retry++)
      span += Math.min(backoff.initialMs * 2 ** (retry - 1), backoff.maxMs);
    expect(span / 2).toBeGreaterThanOrEqual(24 * 3_600_000);
    // The first retry comes soon: a blip at the receiver costs seconds, not hours.
    expect(backoff.initialMs).toBeLessThanOrEqual(60_000);
    // The runner's limit on an attempt leaves the webhook's own default timeout (15 s) room
    // to fire first, with its clearer error.
    expect(WEBHOOK_RETRY.timeoutMs).toBeGreaterThan(15_000);
  });
});
