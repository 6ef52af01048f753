// The example server checks the key before it tells a client to send its body
// (docs/example-server.md, "Expect: 100-continue").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, startServer, type RunningServer } from '../../examples/server/server.js';
import { continueExchange } from '../http/raw-socket.js';
import { testConfig } from './test-config.js';

const body = JSON.stringify({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: 'continue@example.org',
});

function head(origin: string, auth: Record<string, string>): string {
  const lines = Object.entries({
    host: origin.slice('http://'.length),
    'content-type': 'application/scim+json',
    'content-length': Buffer.byteLength(body),
    expect: '100-continue',
    connection: 'close',
    ...auth,
  }).map(([name, value]) => `${name}: ${value}`);
  return `POST ${BASE_PATH}/Users HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

describe('the example server and Expect: 100-continue', () => {
  let running: RunningServer;
  let origin: string;
  beforeAll(async () => {
    running = await startServer(testConfig(), { print: () => undefined });
    origin = new URL(running.url).origin;
  });
  afterAll(() => running.close());

  it('answers a wrong key with the SCIM 401, never 100 Continue', async () => {
    const exchange = await continueExchange(
      origin,
      head(origin, { authorization: 'Bearer wrong' }),
      body,
      10_000,
    );
    expect([exchange.continued, exchange.finalStatus]).toEqual([false, 401]);
    expect(exchange.text).not.toMatch(/100 Continue/i);
  });

  it('sends 100 Continue to a valid key, then creates the user', async () => {
    const exchange = await continueExchange(
      origin,
      head(origin, { authorization: 'Bearer k1' }),
      body,
      10_000,
    );
    expect([exchange.continued, exchange.finalStatus]).toEqual([true, 201]);
  });
});
