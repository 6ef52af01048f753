// Migration 6 gives every row written before it the folded copy the stores write from then on,
// in batches, so that caseIgnore filters find old resources as they find new ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFilter, parseFilter } from '../../../src/filter/index.js';
import { groupResourceType } from '../../../src/schema/group-resource-type.js';
import { userResourceType } from '../../../src/schema/user-resource-type.js';
import { userNameKey } from '../../../src/schema/user-name-key.js';
import { applyMigrations } from '../../../src/stores/postgres/migrate.js';
import { migrations } from '../../../src/stores/postgres/migrations.js';
import { PostgresUserStore } from '../../../src/stores/postgres/index.js';
import { backends, makeUser, type Backend } from './harness.js';

/** More users than one batch of the backfill holds. */
const GENERATED = 1201;

describe.each(backends)('migration 6 (folded copies) on $name', ({ open }) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await open();
  });
  afterAll(() => backend?.close());

  it('fills the folded copy of users, groups and members written before it', async () => {
    const schema = `${backend.schema}_m6`;
    const before = await applyMigrations(backend.executor, { schema }, migrations.slice(0, 5));
    expect(before.version).toBe(5);
    const s = `"${schema}"`;
    const emile = makeUser({ id: 'u-emile', name: { givenName: 'E\u0301MILE' } });
    await backend.executor.query(
      `INSERT INTO ${s}.users
         (tenant, id, user_name, user_name_key, version, created, last_modified, doc)
       VALUES ('t', $1, $2, $3, 'W/"1"', now(), now(), $4::jsonb)`,
      [emile.id, emile.userName, userNameKey(emile.userName), JSON.stringify(emile)],
    );
    await backend.executor.query(
      `INSERT INTO ${s}.users
         (tenant, id, user_name, user_name_key, version, created, last_modified, doc)
       SELECT 't', 'g' || lpad(n::text, 5, '0'), 'U' || n || '@X.org', 'u' || n || '@x.org',
         'W/"1"', now(), now(), jsonb_build_object('id', 'g' || lpad(n::text, 5, '0'),
           'userName', 'U' || n || '@X.org', 'displayName', '\u03a3' || n)
       FROM generate_series(1, ${GENERATED}) AS n`,
    );
    await backend.executor.query(
      `INSERT INTO ${s}.groups
         (tenant, id, display_name, display_name_key, version, created, last_modified, doc)
       VALUES ('t', 'grp', 'Staff', 'staff', 'W/"1"', now(), now(),
         '{"id": "grp", "displayName": "Staff"}'::jsonb)`,
    );
    await backend.executor.query(
      `INSERT INTO ${s}.group_members (tenant, group_id, member_id, member_type, display)
       VALUES ('t', 'grp', 'u-emile', 'User', 'E\u0301mile')`,
    );

    const result = await applyMigrations(backend.executor, { schema }, migrations.slice(0, 6));
    expect(result.applied).toEqual([6]);

    const unfilled = await backend.executor.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM ${s}.users WHERE folded IS NULL)
         + (SELECT count(*) FROM ${s}.groups WHERE folded IS NULL)
         + (SELECT count(*) FROM ${s}.group_members WHERE display_key IS NULL)::int AS n`,
    );
    expect(Number(unfilled[0]?.n)).toBe(0);

    const store = new PostgresUserStore({ executor: backend.executor, schema });
    const users = (text: string) =>
      store
        .list('t', {
          filter: checkFilter(parseFilter(text), userResourceType()),
          startIndex: 1,
          count: 5,
        })
        .then((page) => ({ total: page.totalResults, ids: page.resources.map((u) => u.id) }));
    expect(await users('name.givenName eq "\u00e9mile"')).toEqual({ total: 1, ids: ['u-emile'] });
    expect(await users(`displayName eq "\u03c2${GENERATED}"`)).toEqual({
      total: 1,
      ids: [`g${String(GENERATED).padStart(5, '0')}`],
    });
    expect((await users('displayName sw "\u03c3"')).total).toBe(GENERATED);

    const filter = checkFilter(parseFilter('members.display eq "\u00c9MILE"'), groupResourceType());
    const groups = await store.groups?.list('t', { filter, startIndex: 1, count: 5 });
    expect(groups?.resources.map((g) => g.id)).toEqual(['grp']);
    await backend.executor.query(`DROP SCHEMA ${s} CASCADE`);
  }, 60_000);
});
