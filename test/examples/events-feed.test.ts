// The example server's directory events: the feed at /api/v1/events, the webhooks that
// SCIMKIT_WEBHOOK_URL and SCIMKIT_WEBHOOK_SECRET turn on (checked with the reference
// Standard Webhooks verifier at a receiver on 127.0.0.1), and the console's events page. The
// library's `scim.events` is stood in for by the fake in fake-directory-events.ts.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readConfig, readWebhookConfig } from '../../examples/server/config.js';
import { EVENTS_PATH, FEED_LIMITS } from '../../examples/server/events/events-route.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import {
  createScim,
  generateWebhookSecret,
  isScimError,
  ScimConfigError,
  staticApiKeys,
} from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { fakeDirectoryEvents, type FakeDirectoryEvents } from './fake-directory-events.js';
import { testConfig } from './test-config.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const KEYS = [
  { key: 'k1', tenant: 't1' },
  { key: 'k2', tenant: 't2' },
];

interface Feed {
  status: number;
  headers: Headers;
  body: {
    data?: { id: string; type: string; cursor: string; data: { id: string } }[];
    next?: string | null;
    detail?: string;
    scimType?: string;
  };
}

function client(running: RunningServer) {
  const origin = new URL(running.url).origin;
  return {
    async feed(query = '', key: string | null = 'k1', method = 'GET'): Promise<Feed> {
      const response = await fetch(`${origin}${EVENTS_PATH}${query}`, {
        method,
        headers: key === null ? {} : { authorization: `Bearer ${key}` },
      });
      return {
        status: response.status,
        headers: response.headers,
        body: (await response.json()) as Feed['body'],
      };
    },
    async scim(method: string, path: string, body?: unknown, key = 'k1') {
      const response = await fetch(`${running.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/scim+json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
  };
}

const newUser = (userName: string, active = true) => ({
  schemas: [USER_SCHEMA],
  userName,
  active,
});

describe('GET /api/v1/events', () => {
  let running: RunningServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    running = await startServer(testConfig({ keys: KEYS }), {
      print: () => undefined,
      events: fakeDirectoryEvents,
    });
    api = client(running);
  });
  afterAll(() => running?.close());

  it('answers the tenant of the key its events in order, and resumes from any next', async () => {
    const empty = await api.feed();
    expect(empty.status).toBe(200);
    expect(empty.headers.get('content-type')).toMatch(/^application\/json/);
    expect(empty.body).toEqual({ data: [], next: null });

    const ada = await api.scim('POST', '/Users', newUser('ada@example.org'));
    const bob = await api.scim('POST', '/Users', newUser('bob@example.org'));
    const first = await api.feed('?limit=1');
    expect(first.body.data?.map((e) => [e.type, e.data.id])).toEqual([
      ['user.created', ada.body.id],
    ]);
    // A user created active is invited too (`user.invited`); the creations alone here.
    const second = await api.feed(`?after=${first.body.next}&limit=1&types=user.created`);
    expect(second.body.data?.map((e) => e.data.id)).toEqual([bob.body.id]);

    await api.scim('PATCH', `/Users/${String(bob.body.id)}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    const rest = await api.feed(`?after=${second.body.next}`);
    expect(rest.body.data?.map((e) => e.type)).toContain('user.deactivated');
    const nothingNew = await api.feed(`?after=${rest.body.next}`);
    expect(nothingNew.body).toEqual({ data: [], next: rest.body.next });

    const deactivations = await api.feed('?types=user.deactivated,user.deleted');
    expect(deactivations.body.data?.map((e) => e.data.id)).toEqual([bob.body.id]);
  });

  it('shows another tenant none of them', async () => {
    await api.scim('POST', '/Users', newUser('carol@example.org'));
    const other = await api.feed('', 'k2');
    expect(other.body).toEqual({ data: [], next: null });
  });

  it("pages the console's events page newest first", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 30; i++)
      ids.push(
        String(
          (await api.scim('POST', '/Users', newUser(`p${i}@example.org`, false), 'k2')).body.id,
        ),
      );
    const page = async (query: string) => {
      const response = await fetch(`${running.consoleUrl}/events${query}`, {
        headers: { authorization: 'Bearer k2' },
      });
      const html = await response.text();
      return {
        html,
        shown: [...html.matchAll(/class="resource-id">([^<]+)</g)].map((m) => m[1]),
      };
    };
    const newest = await page('');
    expect(newest.shown).toEqual(ids.slice(5).reverse());
    expect(newest.html).toContain('href="/console/events?page=1" rel="next"');
    expect(newest.html).toContain('None: no subscriber.');
    const older = await page('?page=1');
    expect(older.shown).toEqual(ids.slice(0, 5).reverse());
    expect(older.html).toContain('href="/console/events" rel="prev"');
    expect((await page('?page=99')).shown).toEqual(older.shown);
    const signedOut = await fetch(`${running.consoleUrl}/events`);
    expect(signedOut.status).toBe(401);
  });

  it('answers 401 without a key or with an unknown one, in JSON', async () => {
    for (const key of [null, 'not-a-key']) {
      const refused = await api.feed('', key);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      expect(refused.body.detail).toMatch(key === null ? /Authorization: Bearer/ : /not valid/);
    }
  });

  it('answers 400 with a JSON error that names the problem for a bad limit, after or types', async () => {
    const bad: [string, RegExp][] = [
      ['?limit=0', /limit must be a whole number from 1 to 1000 \(got "0"\)/],
      ['?limit=1001', /limit must be/],
      ['?limit=ten', /limit must be/],
      ['?limit=1.5', /limit must be/],
      ['?limit=', /limit must be/],
      ['?limit=1&limit=2', /"limit" is given more than once/],
      ['?after=%20', /after must be the "next" of an earlier answer/],
      ['?after=', /after must be/],
      ['?after=not-from-this-log', /not one of the log/],
      ['?types=user.created,<script>', /types must be/],
      ['?cursor=1', /Unknown query parameter "cursor"/],
    ];
    for (const [query, detail] of bad) {
      const refused = await api.feed(query);
      expect(refused.status, query).toBe(400);
      expect(refused.headers.get('content-type'), query).toMatch(/^application\/json/);
      expect(refused.body.detail, query).toMatch(detail);
    }
    expect((await api.feed('?after=bad!')).body.scimType).toBe('invalidCursor');
  });

  it('takes every page size scim.events.list takes, and refuses the ones it refuses', async () => {
    const scim = createScim({
      store: new MemoryUserStore(),
      verifier: staticApiKeys([{ key: 'k1', tenant: 't1' }]),
    });
    const library = (limit: number) =>
      scim.events.list('t1', { limit }).then(
        () => 200,
        (error: unknown) => (isScimError(error) ? error.status : 500),
      );
    try {
      for (const limit of [0, 1, FEED_LIMITS.default, FEED_LIMITS.max, FEED_LIMITS.max + 1])
        expect((await api.feed(`?limit=${limit}`)).status, `limit ${limit}`).toBe(
          await library(limit),
        );
    } finally {
      await scim.close();
    }
  });

  it('is read with GET only', async () => {
    const posted = await api.feed('', 'k1', 'POST');
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('the example server without an event log', () => {
  it('answers the feed 501, and refuses to start with webhooks it could not send', async () => {
    const running = await startServer(testConfig(), {
      print: () => undefined,
      events: () => undefined,
    });
    try {
      const answer = await client(running).feed();
      expect(answer.status).toBe(501);
      expect(answer.body.detail).toMatch(/keeps no event log/);
    } finally {
      await running.close();
    }
    // The library's feed refuses the same way when the store has no log.
    const refusing = await startServer(testConfig(), {
      print: () => undefined,
      events: () => ({
        list: () =>
          Promise.reject(new ScimConfigError('scim.events: the store keeps no event log')),
        subscribe: () => ({ stop: () => undefined }),
      }),
    });
    try {
      expect((await client(refusing).feed()).status).toBe(501);
    } finally {
      await refusing.close();
    }
    const webhook = { url: 'http://127.0.0.1:9/hooks', secrets: [generateWebhookSecret()] };
    await expect(
      startServer(testConfig({ webhook }), { print: () => undefined, events: () => undefined }),
    ).rejects.toThrow('SCIMKIT_WEBHOOK_URL is set, but this store keeps no event log');
  });
});

describe('webhooks of the example server', () => {
  const secret = generateWebhookSecret();
  let receiver: Server;
  let received: { headers: Record<string, string>; body: string }[] = [];
  let failNext = 0;
  let running: RunningServer;
  let events: FakeDirectoryEvents;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({
          headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
          body,
        });
        if (failNext > 0) {
          failNext--;
          return void res.writeHead(503).end('busy');
        }
        res.writeHead(200).end();
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/scim`;
    running = await startServer(testConfig({ keys: KEYS, webhook: { url, secrets: [secret] } }), {
      print: () => undefined,
      events: (scim) => (events = fakeDirectoryEvents(scim)),
    });
  });
  afterAll(async () => {
    await running?.close();
    receiver.closeAllConnections();
    receiver.close();
  });
  beforeEach(() => {
    received = [];
    failNext = 0;
  });

  it('POSTs each event, signed with the secret, its webhook-id the feed event id', async () => {
    const api = client(running);
    const created = await api.scim('POST', '/Users', newUser('dora@example.org', false));
    await events.idle();
    const feed = await api.feed();
    const event = feed.body.data?.find((e) => e.data.id === created.body.id);
    expect(received).toHaveLength(1);
    expect(events.subscribed).toEqual([
      {
        name: 'webhooks',
        options: expect.objectContaining({ maxAttempts: 20, timeoutMs: 20_000, leaseMs: 60_000 }),
      },
    ]);
    const [delivery] = received;
    expect(delivery?.headers['webhook-id']).toBe(event?.id);
    expect(new Webhook(secret).verify(delivery?.body ?? '', delivery?.headers ?? {})).toEqual(
      event,
    );
  });

  it('retries a failed delivery, and the console lists every attempt with its status', async () => {
    const api = client(running);
    failNext = 1;
    const created = await api.scim('POST', '/Users', newUser('eve@example.org', false));
    await events.idle();
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([
      received[0]?.headers['webhook-id'],
      received[0]?.headers['webhook-id'],
    ]);
    const page = await fetch(`${running.consoleUrl}/events`, {
      headers: { authorization: 'Bearer k1' },
    });
    const html = await page.text();
    const row = html.slice(html.indexOf(`data-event-id="${received[0]?.headers['webhook-id']}"`));
    expect(row.slice(0, row.indexOf('</tr>'))).toMatch(
      /data-status="ok"[\s\S]*#2[\s\S]*data-status="failed"[\s\S]*#1[\s\S]*503: busy/,
    );
    expect(html).toContain(String(created.body.id));
    expect(html).toContain('<b id="webhooks">on</b>');
  });
});

describe('readWebhookConfig', () => {
  const secret = generateWebhookSecret();
  const url = 'https://app.example.org/hooks/scim';

  it('reads the endpoint, one secret or two while rotating, and the timeout', () => {
    expect(readWebhookConfig({})).toBeUndefined();
    expect(
      readWebhookConfig({ SCIMKIT_WEBHOOK_URL: url, SCIMKIT_WEBHOOK_SECRET: ` ${secret} ` }),
    ).toEqual({ url, secrets: [secret], timeoutMs: 15_000 });
    const next = generateWebhookSecret();
    expect(
      readWebhookConfig({
        SCIMKIT_WEBHOOK_URL: url,
        SCIMKIT_WEBHOOK_SECRET: `${next} ${secret}`,
        SCIMKIT_WEBHOOK_TIMEOUT_MS: '5000',
      }),
    ).toEqual({ url, secrets: [next, secret], timeoutMs: 5000 });
    expect(
      readConfig({
        SCIMKIT_STORE: 'memory',
        SCIMKIT_WEBHOOK_URL: url,
        SCIMKIT_WEBHOOK_SECRET: secret,
      }).webhook?.url,
    ).toBe(url);
  });

  it('refuses at start what cannot work, naming the variable', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ SCIMKIT_WEBHOOK_URL: url }, /SCIMKIT_WEBHOOK_URL needs SCIMKIT_WEBHOOK_SECRET/],
      [{ SCIMKIT_WEBHOOK_SECRET: secret }, /SCIMKIT_WEBHOOK_URL is not/],
      [
        { SCIMKIT_WEBHOOK_URL: 'http://app.example.org/hooks', SCIMKIT_WEBHOOK_SECRET: secret },
        /^SCIMKIT_WEBHOOK_URL: the webhook URL must be https:/,
      ],
      [
        { SCIMKIT_WEBHOOK_URL: url, SCIMKIT_WEBHOOK_SECRET: 'hunter2' },
        /^SCIMKIT_WEBHOOK_SECRET: secrets\[0\]: a webhook secret is "whsec_"/,
      ],
      [
        { SCIMKIT_WEBHOOK_URL: url, SCIMKIT_WEBHOOK_SECRET: `${secret} ${secret} ${secret}` },
        /^SCIMKIT_WEBHOOK_SECRET: give one webhook secret, or two/,
      ],
      [
        {
          SCIMKIT_WEBHOOK_URL: url,
          SCIMKIT_WEBHOOK_SECRET: secret,
          SCIMKIT_WEBHOOK_TIMEOUT_MS: '0',
        },
        /SCIMKIT_WEBHOOK_TIMEOUT_MS/,
      ],
    ];
    for (const [env, message] of bad)
      expect(() => readWebhookConfig(env), JSON.stringify(env)).toThrow(message);
  });
});
