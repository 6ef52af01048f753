import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScim, staticApiKeys, type Scim, type UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresUserStore, pgliteExecutor } from '../../src/stores/postgres/index.js';
import { PATCH_SCHEMA, USER_SCHEMA } from './harness.js';
import { createPglite } from '../pglite/template.js';

const headers = { authorization: 'Bearer k', 'content-type': 'application/scim+json' };

// Two services on one store stand for two processes behind a load balancer: each serialises its
// own writes, and a write that meets the other's newer version is re-read and re-applied.
function twoInstances(store: UserStore): [Scim, Scim] {
  const make = () =>
    createScim({
      store,
      verifier: staticApiKeys([{ key: 'k', tenant: 't' }]),
      mailer: { sendWelcome: async () => undefined },
    });
  return [make(), make()];
}

async function fiftyRoles(store: UserStore) {
  const [a, b] = twoInstances(store);
  const created = await a.handle({
    method: 'POST',
    path: '/Users',
    headers,
    body: JSON.stringify({ schemas: [USER_SCHEMA], userName: 'ada@example.org' }),
  });
  const { id } = JSON.parse(created.body ?? '{}') as { id: string };
  const statuses = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      (i % 2 === 0 ? a : b)
        .handle({
          method: 'PATCH',
          path: `/Users/${id}`,
          headers,
          body: JSON.stringify({
            schemas: [PATCH_SCHEMA],
            Operations: [{ op: 'add', path: 'roles', value: [{ value: `role-${i}` }] }],
          }),
        })
        .then((r) => r.status),
    ),
  );
  const final = JSON.parse(
    (await a.handle({ method: 'GET', path: `/Users/${id}`, headers })).body ?? '{}',
  ) as {
    roles: Array<{ value: string }>;
    meta: { version: string };
  };
  return { statuses, final, id, a };
}

describe('concurrent writers never lose an update', () => {
  it('50 concurrent PATCHes over two instances on one memory store leave all 50 roles', async () => {
    const { statuses, final } = await fiftyRoles(new MemoryUserStore());
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(new Set(final.roles.map((r) => r.value)).size).toBe(50);
    expect(final.meta.version).toBe('W/"51"');
  });

  // Started in the hook (hook timeout 60 s): PGlite's start alone can take 20 s on a busy machine.
  let db: PGlite;
  beforeAll(async () => {
    db = await createPglite();
  });
  afterAll(() => db.close());
  it('the same on the PostgreSQL store (PGlite)', async () => {
    const { statuses, final } = await fiftyRoles(
      new PostgresUserStore({ executor: pgliteExecutor(db), migrate: true }),
    );
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(new Set(final.roles.map((r) => r.value)).size).toBe(50);
  });

  it('a stale If-Match gets 412 and changes nothing', async () => {
    const { final, id, a } = await fiftyRoles(new MemoryUserStore());
    const stale = await a.handle({
      method: 'PATCH',
      path: `/Users/${id}`,
      headers: { ...headers, 'if-match': 'W/"1"' },
      body: JSON.stringify({
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'remove', path: 'roles' }],
      }),
    });
    expect(stale.status).toBe(412);
    const after = JSON.parse(
      (await a.handle({ method: 'GET', path: `/Users/${id}`, headers })).body ?? '{}',
    );
    expect(after).toEqual(JSON.parse(JSON.stringify({ ...final, meta: { ...final.meta } })));
  });
});
