import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresKeyStore, pgliteExecutor } from '../../src/stores/postgres/index.js';
import { createPgliteFolder } from '../pglite/template.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DAY = 86_400_000;

interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

// The command as a user runs it: a child process, its own exit code and output.
function scimkit(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  const { DATABASE_URL: _url, SCIMKIT_DATA_DIR: _dir, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: ROOT, env: { ...inherited, ...env }, timeout: 60_000 },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    );
  });
}

// Each case starts several CLI processes, each booting tsx and PGlite: seconds apiece on a busy machine.
describe('scimkit keys, on a PGlite data folder', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-keys-'));
  const data = ['--data', dir];

  // Opens the folder in this process once the command has exited, as the server would.
  async function withKeys<T>(fn: (keys: PostgresKeyStore) => Promise<T>): Promise<T> {
    const db = await PGlite.create(join(dir, 'pglite'));
    try {
      return await fn(new PostgresKeyStore({ executor: pgliteExecutor(db), migrate: true }));
    } finally {
      await db.close();
    }
  }

  // The database the server makes at its first start.
  beforeAll(() => createPgliteFolder(join(dir, 'pglite')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('issues a key that the server then accepts, and lists it without its secret', async () => {
    const issued = await scimkit(['keys', 'issue', '--tenant', 'district-42', '--json', ...data]);
    expect(issued.err).toBe('');
    expect(issued.code).toBe(0);
    const key = JSON.parse(issued.out) as { id: string; secret: string; scopes: string[] };
    expect(key.secret).toMatch(new RegExp(`^scimkit_${key.id}_`));
    expect(key.scopes).toEqual(['scim:read', 'scim:write']);
    expect(await withKeys((keys) => keys.verify(key.secret))).toEqual({
      id: 'district-42',
      scopes: ['scim:read', 'scim:write'],
    });
    const listed = await scimkit(['keys', 'list', '--tenant', 'district-42', '--json', ...data]);
    expect(listed.code).toBe(0);
    expect(listed.out).not.toContain(key.secret.slice(26));
    expect((JSON.parse(listed.out) as { id: string }[]).map((k) => k.id)).toEqual([key.id]);
    const text = await scimkit(['keys', 'list', '--tenant', 'district-42', ...data]);
    expect(text.out).toContain(key.id);
  });

  it('issues a read-only key with an expiry and a label, rotates it, then revokes it', async () => {
    const before = Date.now();
    const issued = await scimkit([
      'keys',
      'issue',
      '--tenant=district-7',
      '--scope',
      'read',
      '--expires',
      '90d',
      '--label',
      'entra',
      '--json',
      ...data,
    ]);
    expect(issued.code).toBe(0);
    const key = JSON.parse(issued.out) as { id: string; expiresAt: string; label: string };
    expect(key).toMatchObject({ scopes: ['scim:read'], label: 'entra' });
    const expires = Date.parse(key.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 90 * DAY);
    expect(expires).toBeLessThanOrEqual(Date.now() + 90 * DAY);

    const rotated = await scimkit(['keys', 'rotate', key.id, '--overlap', '7d', '--json', ...data]);
    expect(rotated.code).toBe(0);
    const next = JSON.parse(rotated.out) as Record<string, string>;
    expect(next).toMatchObject({ replaces: key.id, tenant: 'district-7', label: 'entra' });
    expect(next['secret']).toMatch(/^scimkit_/);
    expect(Date.parse(next['replacedExpiresAt'] ?? '')).toBeLessThanOrEqual(Date.now() + 7 * DAY);

    const revoked = await scimkit(['keys', 'revoke', String(next['id']), ...data]);
    expect(revoked.code).toBe(0);
    expect(await withKeys((keys) => keys.verify(String(next['secret'])))).toBeNull();
  });

  it.each([
    ['an unknown id', ['keys', 'revoke', '0123456789abcdef'], /No API key has the id/],
    ['a bad duration', ['keys', 'issue', '--tenant', 'd-9', '--expires', '90x'], /duration/],
    ['a bad overlap', ['keys', 'rotate', '0123456789abcdef', '--overlap', '7w'], /duration/],
  ])('refuses %s with one line and a non-zero exit', async (_case, args, message) => {
    const run = await scimkit([...args, ...data]);
    expect(run.code).not.toBe(0);
    expect(run.out).toBe('');
    expect(run.err.trimEnd().split('\n')).toHaveLength(1);
    expect(run.err).toMatch(message);
  });

  it('issued nothing for a refused command', async () => {
    expect(await withKeys((keys) => keys.list('d-9'))).toEqual([]);
  });

  it('refuses a data folder a running server holds', async () => {
    // The example server's lock names its process; this test process stands in for it.
    writeFileSync(join(dir, 'server.lock'), `${process.pid} 0123456789abcdef01234567\n`);
    try {
      const run = await scimkit(['keys', 'list', '--tenant', 'x', ...data]);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(new RegExp(`in use by process ${process.pid}; .*stop the server`));
    } finally {
      rmSync(join(dir, 'server.lock'));
    }
  });

  it('refuses a folder without a database, and no database at all', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'scimkit-keys-empty-'));
    try {
      const missing = await scimkit(['keys', 'list', '--tenant', 'x', '--data', empty]);
      expect(missing.code).toBe(1);
      expect(missing.err.trimEnd().split('\n')).toEqual([
        `scimkit: No database in ${join(empty, 'pglite')}: start the server once to create it, or set DATABASE_URL.`,
      ]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const none = await scimkit(['keys', 'list', '--tenant', 'x']);
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/^scimkit: No database: set DATABASE_URL/);
  });
});
