import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_DATA_DIR,
  parseApiKeys,
  readConfig,
  readStoreConfig,
} from '../../examples/server/config.js';
import { DataFolder } from '../../examples/server/data-folder.js';
import { redactUrl } from '../../examples/server/open-store.js';
import { startServer, type RunningServer } from '../../examples/server/server.js';
import type { MailLogLine } from '../../examples/server/log-mailer.js';
import { testConfig } from './test-config.js';

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

  it('refuses at start a key that could never authenticate, naming the variable and tenant', () => {
    // "two words" would be read as the key, but a Bearer header ends the key at the space.
    expect(() => readConfig({ SCIM_API_KEYS: 'two words:t1' })).toThrow(
      /^SCIM_API_KEYS: the API key of tenant "t1" holds whitespace/,
    );
    expect(() => parseApiKeys('ok:t0, clé:t2')).toThrow(/tenant "t2"/);
  });

  it('takes the keys from the key store when SCIM_API_KEYS is unset', () => {
    const config = readConfig({});
    expect(config.generatedKey).toBe(true);
    expect(config.keys).toEqual([]);
    expect(config.port).toBe(8080);
  });
});

describe('example server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-example-'));
  const mailLog = join(dir, 'mail.jsonl');
  let running: RunningServer;
  const auth = { authorization: 'Bearer k1', 'content-type': 'application/scim+json' };

  beforeAll(async () => {
    running = await startServer(testConfig({ mailLog }), { print: () => undefined });
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs the whole lifecycle: create, welcome email in the mail log, activation link, deactivate', async () => {
    const created = await fetch(`${running.url}/Users`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true }),
    });
    expect(created.status).toBe(201);
    const user = (await created.json()) as { id: string };
    // A line counts once its newline is written: the file exists a moment before its text.
    const lines = () =>
      existsSync(mailLog) ? readFileSync(mailLog, 'utf8').split('\n').slice(0, -1) : [];
    await expect.poll(() => lines().length, { timeout: 3000 }).toBe(1);
    const line = JSON.parse(lines()[0] ?? '') as MailLogLine;
    expect(line).toMatchObject({ to: 'ada@example.org', userId: user.id, tenant: 't1' });
    expect(line.idempotencyKey).toBeTruthy();

    const forged = await fetch(line.activationLink.replace(/token=[^&]+/, 'token=forged'));
    expect(forged.status).toBe(400);
    // The link shows a page; its button posts the form that activates.
    expect((await fetch(line.activationLink)).status).toBe(200);
    const activated = await fetch(new URL('/activate', line.activationLink), {
      method: 'POST',
      body: new URLSearchParams({ token: new URL(line.activationLink).searchParams.get('token')! }),
    });
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
  it('prints a development key with a curl command and, on SIGTERM, finishes the request in flight and exits 0', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], {
      // The memory store keeps this quick; test/e2e starts the default PGlite store.
      env: { ...process.env, PORT: '0', SCIM_API_KEYS: '', SCIMKIT_STORE: 'memory' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output, { timeout: 15_000 }).toContain('curl');
    const key = /Bearer (scimkit_\S+)'/.exec(output)?.[1] ?? '';
    expect(key).not.toBe('');
    const url = new URL(/listening at (\S+)/.exec(output)?.[1] ?? '');
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    // A create whose body is still arriving when the signal comes.
    const body = JSON.stringify({ schemas: [USER_SCHEMA], userName: 'late@example.org' });
    const socket = connect(Number(url.port), url.hostname);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const answered = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST ${url.pathname}/Users HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/scim+json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGTERM');
    await expect.poll(() => output, { timeout: 5000 }).toContain('SIGTERM received');
    socket.write(body.slice(5));
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 201 Created/);
    expect(await exited).toBe(0);
  });
});

describe('example server store selection', () => {
  it('defaults to PGlite in .data/ next to the example, whatever the working directory', () => {
    const store = readStoreConfig({});
    expect(store).toEqual({ kind: 'pglite', dataDir: DEFAULT_DATA_DIR });
    expect(DEFAULT_DATA_DIR).toBe(join(process.cwd(), 'examples', 'server', '.data') + sep);
    expect(readStoreConfig({ SCIMKIT_DATA_DIR: '/srv/scim' })).toEqual({
      kind: 'pglite',
      dataDir: '/srv/scim',
    });
  });

  it('uses PostgreSQL when DATABASE_URL is set, and memory when asked', () => {
    expect(readStoreConfig({ DATABASE_URL: 'postgres://db/x' })).toEqual({
      kind: 'postgres',
      url: 'postgres://db/x',
    });
    expect(
      readStoreConfig({ DATABASE_URL: 'postgres://db/x', SCIMKIT_DB_SCHEMA: 'district' }),
    ).toMatchObject({ schema: 'district' });
    expect(readStoreConfig({ DATABASE_URL: 'postgres://db/x', SCIMKIT_STORE: 'memory' })).toEqual({
      kind: 'memory',
    });
    expect(() => readStoreConfig({ SCIMKIT_STORE: 'postgres' })).toThrow(/DATABASE_URL/);
    expect(() => readStoreConfig({ SCIMKIT_STORE: 'mysql' })).toThrow(/SCIMKIT_STORE/);
  });

  it('reads the welcome email delivery settings and the mail test aids, and refuses nonsense', () => {
    const config = readConfig({
      SCIMKIT_MAIL_POLL_MS: '100',
      SCIMKIT_MAIL_RETRY_MS: '50',
      SCIMKIT_MAIL_LEASE_MS: '1000',
      SCIMKIT_MAIL_MAX_ATTEMPTS: '4',
      SCIMKIT_MAIL_FAIL_FIRST: '3',
      SCIMKIT_MAIL_DELAY_MS: '60000',
    });
    expect(config.mailDelivery).toEqual({
      pollIntervalMs: 100,
      backoff: { initialMs: 50 },
      leaseMs: 1000,
      timeoutMs: 500,
      maxAttempts: 4,
    });
    expect(config.mailTestAids).toEqual({ failFirst: 3, delayMs: 60_000 });
    expect(readConfig({}).mailTestAids).toEqual({ failFirst: 0, delayMs: 0 });
    expect(() => readConfig({ SCIMKIT_MAIL_RETRY_MS: 'soon' })).toThrow(/SCIMKIT_MAIL_RETRY_MS/);
    expect(() => readConfig({ SCIMKIT_MAIL_LEASE_MS: '1' })).toThrow(/at least 2/);
  });

  it('hides the password of DATABASE_URL in the start-up log', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/scim')).toBe('postgres://app:***@db:5432/scim');
    expect(redactUrl('not a url')).not.toContain('not a url');
  });
});

describe('example server data folder', () => {
  it('keeps one activation secret across restarts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scimkit-folder-'));
    try {
      const first = new DataFolder(dir).activationSecret();
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      expect(new DataFolder(dir).activationSecret()).toBe(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a folder locked by a running process and takes over one left by a dead process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scimkit-folder-'));
    try {
      writeFileSync(join(dir, 'server.lock'), `${process.ppid}\n`);
      await expect(new DataFolder(dir).lock()).rejects.toThrow(/in use by process/);
      // Process ids this high are not handed out on Linux (pid_max is at most 2^22).
      writeFileSync(join(dir, 'server.lock'), '99999999\n');
      const folder = new DataFolder(dir);
      await folder.lock();
      expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toMatch(
        new RegExp(`^${process.pid} [0-9a-f]{24}\n$`),
      );
      // A second taker in this very process is refused too: the lock is not stale for it.
      await expect(new DataFolder(dir).lock()).rejects.toThrow(/in use by process/);
      folder.unlock();
      expect(readdirSync(dir)).toEqual([]);
      // A lock naming this pid but not taken by this process was left by an earlier process
      // that had the same pid (a restarted container): stale.
      writeFileSync(join(dir, 'server.lock'), `${process.pid} 0123456789abcdef01234567\n`);
      const again = new DataFolder(dir);
      await again.lock();
      again.unlock();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives a stale lock to exactly one of many servers starting at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scimkit-folder-'));
    // Two cores here: three takers spinning to one start time overlap for real.
    const takers = 3;
    const rounds = 100;
    const children = Array.from({ length: takers }, () => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'test/examples/fixtures/lock-taker.ts', dir],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      const lines: string[] = [];
      let partial = '';
      child.stdout.on('data', (chunk: Buffer) => {
        const parts = (partial + chunk.toString()).split('\n');
        partial = parts.pop() ?? '';
        lines.push(...parts);
      });
      return { child, lines };
    });
    // Each child answers every command with one line; wait for the next one of each.
    const answers = async (count: number) => {
      await expect
        .poll(() => children.every((c) => c.lines.length >= count), {
          timeout: 20_000,
          interval: 2,
        })
        .toBe(true);
      return children.map((c) => c.lines[count - 1] ?? '');
    };
    const tell = (command: string) => {
      for (const { child } of children) child.stdin.write(`${command}\n`);
    };
    try {
      await answers(1); // all loaded and waiting
      const winners: number[] = [];
      const others: string[] = []; // a taker that neither won nor saw the winner's lock
      for (let round = 0; round < rounds; round++) {
        writeFileSync(join(dir, 'server.lock'), '99999999\n'); // left by a dead process
        tell(`go ${Date.now() + 15}`);
        const results = await answers(2 + 2 * round);
        winners.push(results.filter((r) => r === 'won').length);
        others.push(...results.filter((r) => r !== 'won' && !/in use by process \d+/.test(r)));
        tell('release');
        await answers(3 + 2 * round);
      }
      expect({ winners, others }).toEqual({ winners: Array<number>(rounds).fill(1), others: [] });
      // No takeover or temporary file is left behind.
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      for (const { child } of children) child.stdin.end();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
