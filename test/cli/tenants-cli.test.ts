// `scimkit tenants export|delete`, run as a child process on a PGlite data folder.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, type Scim } from '../../src/index.js';
import {
  PostgresKeyStore,
  PostgresResourceStore,
  PostgresUserStore,
  pgliteExecutor,
} from '../../src/stores/postgres/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ROOM = 'urn:example:params:scim:schemas:district:2.0:Room';

interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

// The command as a user runs it: a child process, its own exit code and output.
function scimkit(args: readonly string[]): Promise<Run> {
  const { DATABASE_URL: _url, SCIMKIT_DATA_DIR: _dir, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', ...args],
      { cwd: ROOT, env, timeout: 60_000 },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out, err }),
    );
  });
}

interface Json {
  [key: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

// Each case starts several CLI processes, each booting tsx and PGlite: seconds apiece on a busy machine.
describe('scimkit tenants, on a PGlite data folder', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-tenants-'));
  const data = ['--data', dir];

  // Opens the folder in this process while no command runs, as the server would.
  async function withService<T>(
    fn: (scim: Scim, keys: PostgresKeyStore, rooms: PostgresResourceStore) => Promise<T>,
  ) {
    const db = await PGlite.create(join(dir, 'pglite'));
    try {
      const executor = pgliteExecutor(db);
      const keys = new PostgresKeyStore({ executor, migrate: true, cacheMs: 0 });
      const store = new PostgresUserStore({ executor, migrate: true });
      const rooms = new PostgresResourceStore({ executor, resourceType: 'Room', migrate: true });
      return await fn(createScim({ store, verifier: keys }), keys, rooms);
    } finally {
      await db.close();
    }
  }

  async function call(scim: Scim, key: string, method: string, path: string, body?: unknown) {
    const response = await scim.handle({
      method,
      path,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      baseUrl: 'http://localhost',
    });
    return { status: response.status, body: JSON.parse(response.body ?? 'null') as Json };
  }

  async function counts(tenant: string) {
    return withService(async (scim, keys) => {
      const { id, secret } = await keys.issue(tenant);
      const users = await call(scim, secret, 'GET', '/Users');
      const groups = await call(scim, secret, 'GET', '/Groups');
      await keys.delete(id);
      return {
        users: users.body.totalResults as number,
        groups: groups.body.totalResults as number,
        keys: (await keys.list(tenant)).length,
      };
    });
  }

  beforeAll(async () => {
    await withService(async (scim, keys, rooms) => {
      // A resource of a type the application registers, which the command does not know.
      const at = new Date().toISOString();
      const meta = { resourceType: 'Room', created: at, lastModified: at, version: 'W/"1"' };
      const room = { schemas: [ROOM], id: 'room-1', displayName: 'Lab', meta };
      await rooms.create('leaving', room, { uniqueKeys: {} });
      for (const tenant of ['leaving', 'staying']) {
        const { secret } = await keys.issue(tenant);
        const ids: string[] = [];
        for (const name of ['ada', 'grace', 'alan']) {
          const user = { schemas: [USER], userName: `${name}@${tenant}.example` };
          ids.push((await call(scim, secret, 'POST', '/Users', user)).body.id as string);
        }
        const group = { schemas: [GROUP], displayName: 'Staff', members: [{ value: ids[0] }] };
        await call(scim, secret, 'POST', '/Groups', group);
      }
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exports the tenant as NDJSON to a file, and to standard output', async () => {
    const file = join(dir, 'leaving.ndjson');
    const run = await scimkit(['tenants', 'export', '--tenant', 'leaving', '--out', file, ...data]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toBe(`Exported 4 resources of tenant "leaving" to ${file}.\n`);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const resources = lines.map((line) => JSON.parse(line) as Json);
    expect(resources.map((r) => r.meta.resourceType)).toEqual(['User', 'User', 'User', 'Group']);
    expect(resources[0]!.userName).toBe('ada@leaving.example');
    expect(resources[0]!.groups[0].display).toBe('Staff');
    expect(resources[3]!.members[0].value).toBe(resources[0]!.id);
    expect(JSON.stringify(resources)).not.toContain('staying');

    const piped = await scimkit(['tenants', 'export', '--tenant', 'leaving', ...data]);
    expect(piped.code).toBe(0);
    expect(piped.out).toBe(readFileSync(file, 'utf8'));

    const again = await scimkit([
      'tenants',
      'export',
      '--tenant',
      'leaving',
      '--out',
      file,
      ...data,
    ]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/exists; an export never overwrites a file/);
    expect(readFileSync(file, 'utf8')).toBe(piped.out);
  });

  it('refuses to delete without --yes, and changes nothing', async () => {
    const run = await scimkit(['tenants', 'delete', '--tenant', 'leaving', ...data]);
    expect(run.code).toBe(1);
    expect(run.out).toBe('');
    expect(run.err.trimEnd().split('\n')).toEqual([
      'scimkit: tenants delete removes every user, group and API key of tenant "leaving" for good; add --yes to go ahead (tenants export keeps a copy first).',
    ]);
    expect(await counts('leaving')).toEqual({ users: 3, groups: 1, keys: 1 });
  });

  it('refuses a malformed command line', async () => {
    const noTenant = await scimkit(['tenants', 'delete', '--yes', ...data]);
    expect(noTenant.code).toBe(2);
    expect(noTenant.err).toMatch(/^scimkit: --tenant is required\./);
    const unknown = await scimkit(['tenants', 'purge', '--tenant', 'x', ...data]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^scimkit: Unknown command\./);
  });

  it('deletes the tenant with --yes, printing progress, and leaves the other tenant', async () => {
    const run = await scimkit([
      'tenants',
      'delete',
      '--tenant',
      'leaving',
      '--yes',
      '--json',
      ...data,
    ]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const lines = run.out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Json);
    expect(lines).toEqual([
      { step: 'keys', deleted: 1 },
      { step: 'Group', deleted: 1 },
      { step: 'User', deleted: 3 },
      {
        tenant: 'leaving',
        deleted: true,
        keys: 1,
        resources: { Group: 1, User: 3 },
        left: { Room: 1 },
      },
    ]);
    expect(await counts('leaving')).toEqual({ users: 0, groups: 0, keys: 0 });
    expect(await counts('staying')).toEqual({ users: 3, groups: 1, keys: 1 });

    const again = await scimkit(['tenants', 'delete', '--tenant', 'leaving', '--yes', ...data]);
    expect(again.code).toBe(0);
    expect(again.out.split('\n')).toEqual([
      'keys: 0 deleted',
      'Deleted tenant "leaving": 0 keys, 0 Group, 0 User.',
      "Left: 1 Room (resource types of the application's; delete them with scim.tenants.delete in the application that registers them).",
      '',
    ]);
  });

  it('refuses a data folder a running server holds', async () => {
    writeFileSync(join(dir, 'server.lock'), `${process.pid} 0123456789abcdef01234567\n`);
    try {
      const run = await scimkit(['tenants', 'delete', '--tenant', 'staying', '--yes', ...data]);
      expect(run.code).toBe(1);
      expect(run.err).toMatch(/in use by process/);
    } finally {
      rmSync(join(dir, 'server.lock'));
    }
    expect(existsSync(join(dir, 'pglite'))).toBe(true);
    expect(await counts('staying')).toEqual({ users: 3, groups: 1, keys: 1 });
  });
});
