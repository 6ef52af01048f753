// The example server's SCIMKIT_PUBLIC_URL (docs/example-server.md): with it, no URL the server
// hands out names the host a client claims.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../examples/server/config.js';
import type { MailLogLine } from '../../examples/server/log-mailer.js';
import { BASE_PATH, startServer, type RunningServer } from '../../examples/server/server.js';
import {
  expectOnlyPublicUrls,
  sendSpoofed,
  showsSpoofedHost,
  spoofedExchanges,
} from '../http/spoofed-host.js';
import { testConfig } from './test-config.js';

const PUBLIC_URL = 'https://scim.example.org/gateway';

describe('readConfig: SCIMKIT_PUBLIC_URL', () => {
  const env = { SCIM_API_KEYS: 'k1:t1', SCIMKIT_STORE: 'memory' };

  it('reads the URL without its trailing slash, and none when unset', () => {
    expect(readConfig({ ...env, SCIMKIT_PUBLIC_URL: `${PUBLIC_URL}/` }).publicUrl).toBe(PUBLIC_URL);
    expect(readConfig(env).publicUrl).toBeUndefined();
  });

  it('refuses at start a value that is no http(s) URL without a query, naming the variable', () => {
    for (const bad of ['scim.example.org', 'ftp://x.org', 'https://x.org/?a=1', 'https://u@x.org'])
      expect(() => readConfig({ ...env, SCIMKIT_PUBLIC_URL: bad }), bad).toThrow(
        'SCIMKIT_PUBLIC_URL',
      );
  });
});

describe('the example server with SCIMKIT_PUBLIC_URL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-public-url-'));
  const mailLog = join(dir, 'mail.jsonl');
  let running: RunningServer;
  let origin: string;
  beforeAll(async () => {
    const config = testConfig({ publicUrl: PUBLIC_URL, mailLog, meHeader: 'x-me' });
    running = await startServer(config, { print: () => undefined });
    origin = new URL(running.url).origin;
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds every SCIM URL from it, whatever Host and X-Forwarded-Host say', async () => {
    expectOnlyPublicUrls(
      await spoofedExchanges(origin, 'k1', 'example'),
      `${PUBLIC_URL}${BASE_PATH}`,
    );
  });

  it('puts it in the activation links and the OpenAPI servers', async () => {
    const created = await sendSpoofed(
      origin,
      'POST',
      `${BASE_PATH}/Users`,
      { authorization: 'Bearer k1' },
      {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'link@example.org',
        active: true,
      },
    );
    expect(created.status).toBe(201);
    const lines = () =>
      existsSync(mailLog) ? readFileSync(mailLog, 'utf8').split('\n').slice(0, -1) : [];
    await expect.poll(() => lines().length, { timeout: 3000 }).toBeGreaterThan(0);
    const line = JSON.parse(lines().at(-1) ?? '') as MailLogLine;
    expect(line.activationLink.startsWith(`${PUBLIC_URL}/activate?token=`)).toBe(true);
    const openApi = await sendSpoofed(origin, 'GET', '/openapi.json', {});
    expect(showsSpoofedHost(openApi.text)).toBe(false);
    const servers = (JSON.parse(openApi.text) as { servers: { url: string }[] }).servers;
    expect(servers.map((s) => s.url)).toEqual([`${PUBLIC_URL}${BASE_PATH}`]);
  });
});
