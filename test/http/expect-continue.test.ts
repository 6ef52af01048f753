// `Expect: 100-continue` on every Node target with `deferContinue` installed: the key is checked
// before the client is told to send its body (docs/adapters.md, "Expect: 100-continue").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deferContinue } from '../../src/adapters/node/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { ERROR_SCHEMA, USER_SCHEMA } from './contract-client.js';
import { MOUNT, type RunningServer, targets } from './harness.js';
import { continueExchange, rawExchange } from './raw-socket.js';

const KEY = 'key-continue';
const WAIT_MS = 10_000;

const scim = createScim({
  store: new MemoryUserStore(),
  verifier: staticApiKeys([{ key: KEY, tenant: 'district-3' }]),
  mailer: { sendWelcome: () => Promise.resolve() },
  basePath: MOUNT,
});
afterAll(() => scim.close());

// The bridge that stands in for Bun and Deno builds a Web `Request` over node's request, whose
// body stream reads at once: it is no Node deployment path, and deferContinue cannot help it.
const nodeTargets = targets.filter((t) => t.name !== 'fetch');

function head(origin: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({
    host: origin.slice('http://'.length),
    'content-type': 'application/scim+json',
    expect: '100-continue',
    connection: 'close',
    ...headers,
  }).map(([name, value]) => `${name}: ${value}`);
  return `POST ${MOUNT}/Users HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe.each(nodeTargets)('$name with deferContinue: Expect: 100-continue', (target) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await target.start(scim);
    if (server.server === undefined) throw new Error(`${target.name} runs no node:http server`);
    deferContinue(server.server);
  });
  afterAll(() => server.close());

  it.each([
    ['a wrong key', { authorization: 'Bearer wrong' }],
    ['no key', {}],
  ])('answers %s with the SCIM 401 and never 100 Continue', async (_case, auth) => {
    const body = JSON.stringify({ schemas: [USER_SCHEMA], userName: 'never@example.org' });
    const exchange = await continueExchange(
      server.origin,
      head(server.origin, { ...auth, 'content-length': Buffer.byteLength(body) }),
      body,
      WAIT_MS,
    );
    expect(exchange.continued).toBe(false);
    expect(exchange.text).not.toMatch(/100 Continue/i);
    expect(exchange.finalStatus).toBe(401);
    expect(exchange.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(JSON.parse(exchange.body)).toMatchObject({ schemas: [ERROR_SCHEMA], status: '401' });
  });

  it('sends no 100 Continue after the 401 to a client that sends its body anyway', async () => {
    const body = JSON.stringify({ schemas: [USER_SCHEMA], userName: 'eager@example.org' });
    const exchange = await rawExchange(server.origin, {
      request: head(server.origin, { 'content-length': Buffer.byteLength(body) }) + body,
      waitMs: WAIT_MS,
    });
    expect(exchange.status).toBe(401);
    expect(exchange.text).not.toMatch(/100 Continue/i);
  });

  it('sends 100 Continue to a valid key, then answers the request its body makes', async () => {
    const userName = `continue-${target.name.replace(/\W+/g, '-')}@example.org`;
    const body = JSON.stringify({ schemas: [USER_SCHEMA], userName });
    const exchange = await continueExchange(
      server.origin,
      head(server.origin, {
        authorization: `Bearer ${KEY}`,
        'content-length': Buffer.byteLength(body),
      }),
      body,
      WAIT_MS,
    );
    expect(exchange.continued).toBe(true);
    expect(exchange.finalStatus).toBe(201);
    expect(JSON.parse(exchange.body)).toMatchObject({ userName });
  });
});
