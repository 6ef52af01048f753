import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isScimError } from '../../../src/errors/index.js';
import { migrate, migrations, type PostgresUserStore } from '../../../src/stores/postgres/index.js';
import { backends, inNoGroup, makeUser, type Backend } from './harness.js';

const T = 'tenant-a';

async function expectScimError(promise: Promise<unknown>, status: number, scimType?: string) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isScimError(error)).toBe(true);
  expect(error).toMatchObject({ status, ...(scimType ? { scimType } : {}) });
}

describe.each(backends)('PostgresUserStore on $name', ({ open }) => {
  let backend: Backend;
  let store: PostgresUserStore;

  beforeAll(async () => {
    backend = await open();
    store = backend.newStore();
    await store.migrate();
  });
  afterAll(() => backend?.close());

  it('creates and reads a user back exactly, in schema order', async () => {
    const user = makeUser({ externalId: 'ext-1', name: { givenName: 'Ada', familyName: 'L' } });
    await store.create(T, user);
    const read = await store.get(T, user.id);
    expect(read).toEqual(inNoGroup(user));
    expect(Object.keys(read ?? {})[0]).toBe('schemas');
    expect(Object.keys(read ?? {}).at(-1)).toBe('meta');
    expect(await store.get('other-tenant', user.id)).toBeNull();
    expect(await store.get(T, 'missing')).toBeNull();
  });

  it('rejects a userName taken in the tenant regardless of case, and allows it elsewhere', async () => {
    const first = makeUser({ userName: 'Grace@Example.org' });
    await store.create(T, first);
    await expectScimError(
      store.create(T, makeUser({ userName: 'grace@EXAMPLE.org' })),
      409,
      'uniqueness',
    );
    await store.create('tenant-b', makeUser({ userName: 'grace@example.org' }));
    const all = await store.list(T, {
      startIndex: 1,
      count: 100,
      filter: {
        kind: 'compare',
        path: { attribute: 'userName' },
        op: 'eq',
        value: 'GRACE@example.org',
      },
    });
    expect(all.resources.map((u) => u.id)).toEqual([first.id]);
  });

  it('replaces only at the expected version and tells missing from stale', async () => {
    const user = makeUser();
    await store.create(T, user);
    const next = { ...user, displayName: 'Next', meta: { ...user.meta, version: 'W/"2"' } };
    expect(await store.replace(T, next, { expectedVersion: 'W/"1"' })).toBe(true);
    expect(await store.get(T, user.id)).toEqual(inNoGroup(next));

    const stale = { ...user, displayName: 'Stale', meta: { ...user.meta, version: 'W/"3"' } };
    await expectScimError(store.replace(T, stale, { expectedVersion: 'W/"1"' }), 412);
    expect(await store.get(T, user.id)).toEqual(inNoGroup(next));

    const ghost = makeUser();
    expect(await store.replace(T, ghost, { expectedVersion: 'W/"1"' })).toBe(false);
    expect(await store.replace('tenant-b', next, { expectedVersion: 'W/"2"' })).toBe(false);
  });

  it('maps a userName clash on replace to uniqueness and changes nothing', async () => {
    const a = makeUser();
    const b = makeUser();
    await store.create(T, a);
    await store.create(T, b);
    const clash = {
      ...b,
      userName: a.userName.toUpperCase(),
      meta: { ...b.meta, version: 'W/"2"' },
    };
    await expectScimError(store.replace(T, clash, { expectedVersion: 'W/"1"' }), 409, 'uniqueness');
    expect(await store.get(T, b.id)).toEqual(inNoGroup(b));
  });

  it('deletes, optionally at an expected version', async () => {
    const user = makeUser();
    await store.create(T, user);
    await expectScimError(store.delete(T, user.id, { expectedVersion: 'W/"9"' }), 412);
    expect(await store.get(T, user.id)).toEqual(inNoGroup(user));
    expect(await store.delete('tenant-b', user.id)).toBe(false);
    expect(await store.delete(T, user.id, { expectedVersion: 'W/"1"' })).toBe(true);
    expect(await store.get(T, user.id)).toBeNull();
    expect(await store.delete(T, user.id)).toBe(false);
    expect(await store.delete(T, user.id, { expectedVersion: 'W/"1"' })).toBe(false);
  });

  it('pages by id with a right totalResults, also past the end', async () => {
    const tenant = 'paging';
    const users = Array.from({ length: 7 }, (_, i) =>
      makeUser({ id: `p${String(i).padStart(3, '0')}` }),
    );
    for (const u of [...users].reverse()) await store.create(tenant, u);
    const page = await store.list(tenant, { startIndex: 3, count: 2 });
    expect(page).toEqual({
      totalResults: 7,
      resources: users.slice(2, 4).map((u) => inNoGroup(u)),
    });
    expect(await store.list(tenant, { startIndex: 50, count: 10 })).toEqual({
      totalResults: 7,
      resources: [],
    });
    expect(await store.list(tenant, { startIndex: 1, count: 0 })).toEqual({
      totalResults: 7,
      resources: [],
    });
    await store.delete(tenant, users[0]!.id);
    expect((await store.list(tenant, { startIndex: 1, count: 100 })).totalResults).toBe(6);
    expect(await store.list('empty-tenant', { startIndex: 1, count: 10 })).toEqual({
      totalResults: 0,
      resources: [],
    });
    const filtered = await store.list(tenant, {
      startIndex: 9,
      count: 10,
      filter: { kind: 'compare', path: { attribute: 'id' }, op: 'gt', value: 'p002' },
    });
    expect(filtered).toEqual({ totalResults: 4, resources: [] });
  });

  it('migrates idempotently and records the version', async () => {
    const again = await migrate(backend.executor, { schema: backend.schema });
    const versions = migrations.map((m) => m.version);
    expect(again).toEqual({ applied: [], version: Math.max(...versions) });
    const rows = await backend.executor.query<{ version: number }>(
      `SELECT version FROM "${backend.schema}".migrations ORDER BY version`,
    );
    expect(rows.map((r) => r.version)).toEqual(versions);
  });
});
