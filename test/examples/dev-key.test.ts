import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresKeyStore, pgliteExecutor } from '../../src/stores/postgres/index.js';
import { devKey } from '../../examples/server/dev-key.js';
import { startServer } from '../../examples/server/server.js';
import { MemoryKeyStore } from '../../src/index.js';
import { createPgliteFolder } from '../pglite/template.js';
import { testConfig } from './test-config.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

describe('example server without SCIM_API_KEYS, on its PGlite data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scimkit-dev-key-'));
  const config = testConfig({
    keys: [],
    generatedKey: true,
    store: { kind: 'pglite', dataDir: dir },
  });
  // PGlite's first start in a process compiles its WebAssembly, and a new database runs initdb:
  // 20 s or more on a busy machine. Both happen here, under the hook's timeout, opening an empty
  // database once; the server finds no tables, no key and no key file, still its first start,
  // and each start in the tests costs a reopen and the migrations.
  beforeAll(async () => {
    await createPgliteFolder(join(dir, 'pglite'));
    await (await PGlite.create(join(dir, 'pglite'))).close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // One start: the development key it prints, and what a request with that key gets.
  async function start(userName: string) {
    const running = await startServer(config, { print: () => undefined });
    try {
      const key = running.devKey?.key;
      const reply = await fetch(`${running.url}/Users`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key ?? ''}`,
          'content-type': 'application/scim+json',
        },
        body: JSON.stringify({ schemas: [USER_SCHEMA], userName }),
      });
      return { key, status: reply.status, keys: running, close: () => running.close() };
    } catch (error) {
      await running.close();
      throw error;
    }
  }

  it('issues a development key at the first start and keeps it, working, across a restart', async () => {
    const first = await start('first@example.org');
    await first.close();
    expect(first.key).toMatch(/^scimkit_/);
    expect(first.status).toBe(201);
    // Only the owner may read the kept key.
    expect(statSync(join(dir, 'dev-api-key')).mode & 0o777).toBe(0o600);

    const second = await start('second@example.org');
    await second.close();
    expect(second.key).toBe(first.key);
    expect(second.status).toBe(201);
  });

  it('does not replace a development key that was revoked', async () => {
    const db = await PGlite.create(join(dir, 'pglite'));
    try {
      const keys = new PostgresKeyStore({ executor: pgliteExecutor(db) });
      for (const key of await keys.list('dev')) await keys.revoke(key.id);
    } finally {
      await db.close();
    }
    const third = await start('third@example.org');
    const note = third.keys.devKey?.note;
    await third.close();
    expect(third.key).toBeUndefined();
    expect(note).toMatch(/no longer works/);
    expect(third.status).toBe(401);
  });
});

describe('the development key without a data folder (a PostgreSQL server)', () => {
  it('is shown at the first start only, and never issued twice', async () => {
    const keys = new MemoryKeyStore();
    const first = await devKey(keys, undefined);
    expect(first.key).toMatch(/^scimkit_/);
    expect(await keys.verify(first.key ?? '')).toMatchObject({ id: 'dev' });
    const second = await devKey(keys, undefined);
    expect(second.key).toBeUndefined();
    expect(second.note).toMatch(/shown at the first start/);
    expect(await keys.list('dev')).toHaveLength(1);
  });
});
