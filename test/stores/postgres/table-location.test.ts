import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScimConfigError, isScimError } from '../../../src/errors/index.js';
import { PostgresUserStore, pgliteExecutor } from '../../../src/stores/postgres/index.js';
import { inNoGroup, makeUser } from './harness.js';
import { createPglite } from '../../pglite/template.js';

describe('PostgresUserStore table location', () => {
  it('refuses a schema or prefix that is not a plain lower-case identifier', () => {
    const executor = pgliteExecutor({} as PGlite);
    for (const bad of ['Public', 'a"b', 'x; DROP TABLE y', '']) {
      expect(() => new PostgresUserStore({ executor, schema: bad })).toThrow(ScimConfigError);
    }
    expect(() => new PostgresUserStore({ executor, tablePrefix: 'scim-' })).toThrow(
      ScimConfigError,
    );
  });

  // Started in the hook (hook timeout 60 s): PGlite's start alone can take 20 s on a busy machine.
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
  });
  afterAll(() => db.close());
  it('keeps prefixed tables in public, with the same uniqueness and counts', async () => {
    const executor = pgliteExecutor(db);
    const store = new PostgresUserStore({
      executor,
      schema: 'public',
      tablePrefix: 'scim_',
      migrate: true,
    });
    const user = makeUser({ userName: 'Ada@example.org' });
    await store.create('t', user);
    const twin = store.create('t', makeUser({ userName: 'ada@EXAMPLE.org' }));
    const error = await twin.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isScimError(error) && error.status === 409 && error.scimType === 'uniqueness').toBe(
      true,
    );
    expect(await store.list('t', { startIndex: 1, count: 10 })).toEqual({
      totalResults: 1,
      resources: [inNoGroup(user)],
    });
    const tables = await executor.query<{ tablename: string }>(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    );
    expect(tables.map((t) => t.tablename)).toEqual([
      'scim_api_keys',
      'scim_dead_letters',
      'scim_delivery_attempts',
      'scim_events',
      'scim_group_members',
      'scim_groups',
      'scim_migrations',
      'scim_resource_keys',
      'scim_resources',
      'scim_subscription_partitions',
      'scim_subscription_walkers',
      'scim_user_counts',
      'scim_users',
    ]);
  });
});
