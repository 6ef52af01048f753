import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { MailLogLine } from '../../examples/server/log-mailer.js';

/**
 * The PostgreSQL server the multi-process tests run on. Unset on machines without one: those
 * run the PGlite tests only.
 */
export const databaseUrl = process.env['SCIMKIT_TEST_DATABASE_URL'];

export const KEY = 'e2e-key';
export const TENANT = 'e2e';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ACCOUNT = 'urn:scimkit:params:scim:schemas:extension:account:2.0:User';
const HEADERS = { authorization: `Bearer ${KEY}`, 'content-type': 'application/scim+json' };

/** One example-server process started by `node --import tsx examples/server/main.ts`. */
export interface ServerProcess {
  /** The SCIM base URL the process printed. */
  readonly url: string;
  readonly origin: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Sends SIGTERM and resolves to the exit code. */
  stop(): Promise<number | null>;
  /** Sends SIGKILL: no shutdown code runs. */
  kill(): Promise<void>;
}

const children = new Set<ChildProcess>();

/** Kills every process a test left running (for afterAll after a failed assertion). */
export async function killAll(): Promise<void> {
  await Promise.all([...children].map((child) => exitOf(child, 'SIGKILL')));
}

function exitOf(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) {
    children.delete(child);
    return Promise.resolve(child.exitCode);
  }
  return new Promise((resolve) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
    child.kill(signal);
  });
}

/** The parent's environment without anything that would choose the child's store or mail. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('SCIMKIT_') || ['DATABASE_URL', 'PORT', 'HOST'].includes(name))
      delete env[name];
  }
  return env;
}

/**
 * Starts an example-server process on a free loopback port and resolves once it prints its
 * URL; rejects with its output if it exits or stays silent for `timeoutMs`.
 */
export function spawnServer(
  env: Record<string, string>,
  timeoutMs = 50_000,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server/main.ts'], {
    env: {
      ...cleanEnvironment(),
      PORT: '0',
      HOST: '127.0.0.1',
      SCIM_API_KEYS: `${KEY}:${TENANT}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearInterval(watch);
      clearTimeout(timer);
      void exitOf(child, 'SIGKILL');
      reject(new Error(`${why}\n--- output ---\n${text}`));
    };
    const timer = setTimeout(() => fail(`no URL within ${timeoutMs} ms`), timeoutMs);
    child.once('exit', (code) => fail(`exited with ${code} before listening`));
    const watch = setInterval(() => {
      const match = /listening at (http:\/\/\S+)/.exec(text);
      if (!match?.[1]) return;
      clearInterval(watch);
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const url = match[1];
      resolve({
        url,
        origin: new URL(url).origin,
        output: () => text,
        stop: () => exitOf(child, 'SIGTERM'),
        kill: async () => void (await exitOf(child, 'SIGKILL')),
      });
    }, 25);
  });
}

/** A scratch folder (data dir, mail log) removed by `remove`. */
export function scratch(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-e2e-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The complete lines of a mail log (a line counts once its newline is written). */
export function readMail(file: string): MailLogLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as MailLogLine);
}

/** How many times each value occurs. */
export function tally(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

/** The mail test aid's failure lines, counted per idempotency key. */
export function failuresByKey(output: string): Map<string, number> {
  return tally([...output.matchAll(/\[mail\] attempt \d+ key=(\S+) failed/g)].map((m) => m[1]!));
}

/** A user as the tests read it back. */
export interface SeenUser {
  readonly id: string;
  readonly userName: string;
  readonly status: string;
}

function seen(body: Record<string, unknown>): SeenUser {
  const account = body[ACCOUNT] as { status: string } | undefined;
  return { id: String(body.id), userName: String(body.userName), status: String(account?.status) };
}

/** POSTs a user; resolves to the status and, on 201, the user. */
export async function createUser(
  url: string,
  userName: string,
  active: boolean,
): Promise<{ status: number; user?: SeenUser; scimType?: string }> {
  const response = await fetch(`${url}/Users`, {
    method: 'POST',
    headers: HEADERS,
    body: JSON.stringify({ schemas: [USER_SCHEMA], userName, active }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status === 201) return { status: 201, user: seen(body) };
  return { status: response.status, scimType: String(body.scimType) };
}

/** Sets `active` with a PATCH and resolves to the user. */
export async function setActive(url: string, id: string, active: boolean): Promise<SeenUser> {
  const response = await fetch(`${url}/Users/${id}`, {
    method: 'PATCH',
    headers: HEADERS,
    body: JSON.stringify({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: active }],
    }),
  });
  if (response.status !== 200) throw new Error(`PATCH answered ${response.status}`);
  return seen((await response.json()) as Record<string, unknown>);
}

/** Lists every user of the tenant (at most 100), sorted by userName. */
export async function listUsers(url: string): Promise<SeenUser[]> {
  const response = await fetch(`${url}/Users?count=100`, { headers: HEADERS });
  if (response.status !== 200) throw new Error(`GET /Users answered ${response.status}`);
  const body = (await response.json()) as { Resources?: Record<string, unknown>[] };
  return (body.Resources ?? []).map(seen).sort((a, b) => a.userName.localeCompare(b.userName));
}

/** A fresh PostgreSQL schema for one test file, dropped with everything in it by `drop`. */
export function freshSchema(url: string): { schema: string; drop(): Promise<void> } {
  const schema = `scimkit_e2e_${randomBytes(6).toString('hex')}`;
  return {
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Waits a while, for checks that nothing more happens. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
