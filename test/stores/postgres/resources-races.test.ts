// Writers racing on the PostgreSQL store of a host resource type, from two executors (two
// processes on the server; PGlite serialises them): one unique key has exactly one holder,
// one version exactly one successor, and a refused write leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScimResource } from '../../../src/contracts/resource-store.js';
import { isScimError } from '../../../src/errors/index.js';
import { PostgresResourceStore } from '../../../src/stores/postgres/index.js';
import { conformanceThingType, thingMaker } from '../../../src/testing/resource-store-cases.js';
import { backends, type Backend } from './harness.js';

const statusOf = (settled: PromiseSettledResult<unknown>) =>
  settled.status === 'fulfilled'
    ? 'ok'
    : isScimError(settled.reason)
      ? `${settled.reason.status} ${settled.reason.scimType ?? ''}`.trim()
      : String(settled.reason);

describe.each(backends)('racing writes to host resources on $name', ({ open }) => {
  let backend: Backend;
  let a: PostgresResourceStore;
  let b: PostgresResourceStore;
  const { make, next } = thingMaker();
  const T = 'races';

  beforeAll(async () => {
    backend = await open();
    const { executor, other, schema } = backend;
    a = new PostgresResourceStore({ executor, schema, resourceType: 'Thing', migrate: true });
    b = new PostgresResourceStore({ executor: other, schema, resourceType: 'Thing' });
    await a.migrate();
  }, 60_000);
  afterAll(() => backend?.close());

  it('creates with the same unique key: exactly one wins, the others get 409', async () => {
    const things = Array.from({ length: 6 }, () => make({ displayName: 'Same', code: 'k-1' }));
    const results = await Promise.allSettled(
      things.map((t, i) => (i % 2 ? a : b).create(T, t, { uniqueKeys: { code: 'k-1' } })),
    );
    const statuses = results.map(statusOf);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(1);
    expect(statuses.filter((s) => s === '409 uniqueness')).toHaveLength(5);
    const page = await a.list(T, { startIndex: 1, count: 10, resourceType: conformanceThingType });
    expect(page.totalResults).toBe(1);
  });

  it('replaces over one version: exactly one wins, the others get 412', async () => {
    const v1 = make({ displayName: 'V1' });
    await a.create(T, v1, { uniqueKeys: {} });
    const writes = [1, 2, 3, 4].map((n) => next(v1, { displayName: `V2-${n}` }));
    const results = await Promise.allSettled(
      writes.map((w, i) =>
        (i % 2 ? a : b).replace(T, w, { expectedVersion: v1.meta.version, uniqueKeys: {} }),
      ),
    );
    const statuses = results.map(statusOf);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(1);
    expect(statuses.filter((s) => s === '412')).toHaveLength(3);
  });

  it('a replace refused for a taken key changes neither the resource nor its keys', async () => {
    const x = make({ displayName: 'X', code: 'x-key' });
    const y = make({ displayName: 'Y', code: 'y-key' });
    await a.create(T, x, { uniqueKeys: { code: 'x-key' } });
    await a.create(T, y, { uniqueKeys: { code: 'y-key' } });
    const yTaken: ScimResource = next(y, { code: 'x-key' });
    await expect(
      b.replace(T, yTaken, { expectedVersion: y.meta.version, uniqueKeys: { code: 'x-key' } }),
    ).rejects.toMatchObject({ status: 409, scimType: 'uniqueness' });
    expect(await a.get(T, y.id)).toEqual(y);
    // y still holds its key: a third resource cannot take it.
    const z = make({ displayName: 'Z', code: 'y-key' });
    await expect(a.create(T, z, { uniqueKeys: { code: 'y-key' } })).rejects.toMatchObject({
      status: 409,
    });
    expect(await a.get(T, z.id)).toBeNull();
  });

  it('a second create with the same id is a 409, not a crash', async () => {
    const t = make({ displayName: 'Twice' });
    await a.create(T, t, { uniqueKeys: {} });
    await expect(b.create(T, t, { uniqueKeys: {} })).rejects.toMatchObject({ status: 409 });
  });

  it('replaces that swap unique keys, or cross two of them, answer 409 or succeed, never fail', async () => {
    const keys = (r: ScimResource) => ({ code: String(r.code), room: String(r.room) });
    for (let round = 0; round < 20; round++) {
      let x = make({ displayName: 'X', code: `x${round}`, room: `rx${round}` });
      let y = make({ displayName: 'Y', code: `y${round}`, room: `ry${round}` });
      await a.create(T, x, { uniqueKeys: keys(x) });
      await a.create(T, y, { uniqueKeys: keys(y) });
      const swap = (r: ScimResource, code: string, room: string) => next(r, { code, room });
      const results = await Promise.allSettled([
        a.replace(T, (x = swap(x, `y${round}`, `ry${round}`)), {
          expectedVersion: 'W/"1"',
          uniqueKeys: keys(x),
        }),
        b.replace(T, (y = swap(y, `x${round}`, `rx${round}`)), {
          expectedVersion: 'W/"1"',
          uniqueKeys: keys(y),
        }),
      ]);
      for (const status of results.map(statusOf))
        expect(['ok', '409 uniqueness']).toContain(status);
    }
  });
});
