import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKeys, readConfig } from '../../examples/server/config.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import type { MailLogLine } from '../../examples/server/log-mailer.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ACCOUNT = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';

describe('example server configuration', () => {
  it('parses token:tenant pairs separated by commas', () => {
    expect(parseApiKeys('a:t1, b:c:t2 ,')).toEqual([
      { key: 'a', tenant: 't1' },
      { key: 'b:c', tenant: 't2' },
    ]);
    expect(() => parseApiKeys('lonely')).toThrow(/token:tenant/);
  });

  it('generates a development key when SCIM_API_KEYS is unset', () => {
    const config = readConfig({});
    expect(config.generatedKey).toBe(true);
    expect(config.keys[0]?.key).toMatch(/^dev-/);
    expect(config.port).toBe(8080);
  });
});

describe('example server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-example-'));
  const mailLog = join(dir, 'mail.jsonl');
  let running: RunningServer;
  const auth = { authorization: 'Bearer k1', 'content-type': 'application/scim+json' };

  beforeAll(async () => {
    running = await startServer(
      {
        host: '127.0.0.1',
        port: 0,
        keys: [{ key: 'k1', tenant: 't1' }],
        generatedKey: false,
        mailLog,
        activationSecret: 'secret',
      },
      { print: () => undefined },
    );
  });
  afterAll(() => running.close());

  it('runs the whole lifecycle: create, welcome email in the mail log, activation link, deactivate', async () => {
    const created = await fetch(`${running.url}/Users`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true }),
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { id: string };
    await expect
      .poll(() => readFileSync(mailLog, 'utf8').trim().split('\n').length, { timeout: 3000 })
      .toBe(1);
    const line = JSON.parse(readFileSync(mailLog, 'utf8').trim()) as MailLogLine;
    expect(line).toMatchObject({ to: 'ada@example.org', userId: user.id, tenant: 't1' });
    expect(line.idempotencyKey).toBeTruthy();

    const forged = await fetch(line.activationLink.replace(/token=[^&]+/, 'token=forged'));
    expect(forged.status).toBe(400);
    const activated = await fetch(line.activationLink);
    expect(activated.status).toBe(200);
    const read = (await (
      await fetch(`${running.url}/Users/${user.id}`, { headers: auth })
    ).json()) as Record<string, { status: string }>;
    expect(read[ACCOUNT]?.status).toBe('Activated');

    const patched = await fetch(`${running.url}/Users/${user.id}`, {
      method: 'PATCH',
      headers: auth,
      body: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      }),
    });
    expect(((await patched.json()) as Record<string, { status: string }>)[ACCOUNT]?.status).toBe(
      'Deactivated',
    );
  });

  it('answers 404 outside the SCIM base path', async () => {
    const origin = new URL(running.url).origin;
    expect((await fetch(`${origin}/elsewhere`)).status).toBe(404);
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
  });
});

describe('npm start', () => {
  it('prints a development key with a curl command and shuts down cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], {
      env: { ...process.env, PORT: '0', SCIM_API_KEYS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 15_000 }).toContain('curl');
    expect(output).toMatch(/Bearer dev-/);
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
