import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScimUser } from '../../../src/schema/user-resource.js';
import { applyMigrations } from '../../../src/stores/postgres/migrate.js';
import { migrations } from '../../../src/stores/postgres/migrations.js';
import { PostgresUserStore, migrate } from '../../../src/stores/postgres/index.js';
import { backends, makeUser, type Backend } from './harness.js';

const page = { startIndex: 1, count: 10 } as const;

describe.each(backends)('migration 2 (userName key) on $name', ({ open }) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(() => backend?.close());

  /** A fresh schema at version 1, holding the given users as version 1 stored them. */
  async function atVersion1(rows: readonly [string, ScimUser][]): Promise<string> {
    const schema = `${backend.schema}_${Math.random().toString(36).slice(2, 8)}`;
    const applied = await applyMigrations(backend.executor, { schema }, migrations.slice(0, 1));
    expect(applied.version).toBe(1);
    for (const [tenant, user] of rows) {
      await backend.executor.query(
        `INSERT INTO "${schema}".users
          (tenant, id, user_name, external_id, version, created, last_modified, doc)
          VALUES ($1, $2, $3, NULL, $4, $5, $5, $6::jsonb)`,
        [
          tenant,
          user.id,
          user.userName,
          user.meta.version,
          user.meta.created,
          JSON.stringify(user),
        ],
      );
    }
    return schema;
  }

  const versions = (schema: string) =>
    backend.executor
      .query<{ version: number }>(`SELECT version FROM "${schema}".migrations ORDER BY version`)
      .then((rows) => rows.map((r) => Number(r.version)));

  it('keys existing users by the new folding, so each is found by its own userName', async () => {
    const unal = makeUser({ userName: 'Ünal@x.org' });
    const sigma = makeUser({ userName: 'ΟΔΥΣΣΕΑΣ@x.org' });
    const plain = makeUser({ userName: 'Ada@Example.org' });
    // Under version 1 these two are distinct (lower() folds A–Z only): distinct tenants here.
    const emile = makeUser({ userName: 'Émile@x.org' });
    const emileElsewhere = makeUser({ userName: 'émile@x.org' });
    const schema = await atVersion1([
      ['t1', unal],
      ['t1', sigma],
      ['t1', plain],
      ['t1', emile],
      ['t2', emileElsewhere],
    ]);
    const result = await migrate(backend.executor, { schema });
    expect(result.applied).toContain(2);
    const store = new PostgresUserStore({ executor: backend.executor, schema });
    const find = async (tenant: string, userName: string) =>
      (
        await store.list(tenant, {
          ...page,
          filter: { kind: 'compare', path: { attribute: 'userName' }, op: 'eq', value: userName },
        })
      ).resources.map((u) => u.id);
    expect(await find('t1', 'Ünal@x.org')).toEqual([unal.id]);
    expect(await find('t1', 'u\u0308nal@X.ORG')).toEqual([unal.id]);
    expect(await find('t1', 'οδυσσεας@x.org')).toEqual([sigma.id]);
    expect(await find('t1', 'ada@example.org')).toEqual([plain.id]);
    expect(await find('t1', 'ÉMILE@x.org')).toEqual([emile.id]);
    expect(await find('t2', 'Émile@x.org')).toEqual([emileElsewhere.id]);
    // The stored userName is kept exactly as it was sent.
    expect((await store.get('t1', unal.id))?.userName).toBe('Ünal@x.org');
    await expect(store.create('t1', makeUser({ userName: 'ÜNAL@x.org' }))).rejects.toMatchObject({
      status: 409,
      scimType: 'uniqueness',
    });
    await backend.executor.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it('stops on two users of one tenant that fold to one key, names them, and changes nothing', async () => {
    const upper = makeUser({ userName: 'Émile@x.org' });
    const lower = makeUser({ userName: 'e\u0301mile@x.org' });
    const schema = await atVersion1([
      ['district-7', upper],
      ['district-7', lower],
      ['district-8', makeUser({ userName: 'Zoë@x.org' })],
    ]);
    const failure = await migrate(backend.executor, { schema }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toContain(
      `tenant "district-7": ${JSON.stringify(upper.userName)}, ${JSON.stringify(lower.userName)}`,
    );
    expect(failure?.message).not.toContain('Zoë');
    // Rolled back as a whole: still version 1, no key column, both users still there.
    expect(await versions(schema)).toEqual([1]);
    const columns = await backend.executor.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_schema = $1 AND table_name = 'users' AND column_name = 'user_name_key'`,
      [schema],
    );
    expect(columns).toEqual([]);
    // Once a person has removed one of the pair, the migration goes through.
    await backend.executor.query(`DELETE FROM "${schema}".users WHERE id = $1`, [lower.id]);
    const result = await migrate(backend.executor, { schema });
    expect(result.version).toBe(migrations.at(-1)?.version);
    await backend.executor.query(`DROP SCHEMA "${schema}" CASCADE`);
  });

  it('keys every user when there are more than one batch of them', async () => {
    const users = Array.from({ length: 2500 }, (_, i) => makeUser({ userName: `Ärzt${i}@x.org` }));
    const schema = await atVersion1([]);
    await backend.executor.query(
      `INSERT INTO "${schema}".users
        (tenant, id, user_name, external_id, version, created, last_modified, doc)
        SELECT 't', u->>'id', u->>'userName', NULL, 'W/"1"', now(), now(), u
        FROM jsonb_array_elements($1::jsonb) AS u`,
      [JSON.stringify(users)],
    );
    // The column becomes NOT NULL at the end of the migration: a row a batch missed fails it.
    await migrate(backend.executor, { schema });
    const keys = await backend.executor.query<{ user_name_key: string }>(
      `SELECT user_name_key FROM "${schema}".users WHERE id = $1`,
      [users[2499]!.id],
    );
    expect(keys[0]?.user_name_key).toBe('ärzt2499@x.org');
    await backend.executor.query(`DROP SCHEMA "${schema}" CASCADE`);
  });
});
