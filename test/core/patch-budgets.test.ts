import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScimOptions, UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { databaseUrl, openPglite, openServer, type Backend } from '../stores/postgres/harness.js';
import { patchBody, setup, USER_SCHEMA } from './harness.js';

const roles = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ value: `r${from + i}` }));

// The limits are checked by the core before the store is called: every store answers alike.
const url = databaseUrl;
// One database per store for the whole file, so each test uses userNames of its own.
const backends: {
  name: string;
  open: () => Promise<{ store: () => UserStore; close(): Promise<void> }>;
}[] = [
  {
    name: 'memory',
    open: async () => ({ store: () => new MemoryUserStore(), close: async () => {} }),
  },
  { name: 'pglite', open: () => wrap(openPglite()) },
  ...(url ? [{ name: 'postgres', open: () => wrap(openServer(url)) }] : []),
];

async function wrap(backend: Promise<Backend>) {
  const b = await backend;
  return { store: () => b.newStore(), close: () => b.close() };
}

describe.each(backends)('budgets on the $name store', ({ open }) => {
  let backend: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    backend = await open();
  }, 60_000);
  afterAll(() => backend.close());

  const service = (options: Partial<ScimOptions> = {}) =>
    setup({ store: backend.store(), ...options });

  it('maxAttributeValues: POST, PUT and PATCH may reach the limit, not pass it', async () => {
    const { request, createUser } = service({ maxAttributeValues: 5 });
    const refused = await request('POST', '/Users', {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', roles: roles(6) },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.scimType).toBe('invalidValue');
    expect(refused.body.detail).toBe(
      '"roles" would hold 6 values; this server keeps at most 5 per attribute (maxAttributeValues).',
    );
    const user = await createUser('ada@example.org', { roles: roles(5) });
    expect(user.roles).toHaveLength(5);

    const put = await request('PUT', `/Users/${user.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', emails: [], roles: roles(6) },
    });
    expect(put.status).toBe(400);
    expect(put.body.scimType).toBe('invalidValue');
    const patch = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'add', path: 'roles', value: [{ value: 'one-more' }] }),
    });
    expect(patch.status).toBe(400);
    expect(patch.body.detail).toMatch(/"roles" would hold 6 values/);
    // Nothing was written.
    expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
    const swap = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody(
        { op: 'remove', path: 'roles[value eq "r0"]' },
        { op: 'add', path: 'roles', value: [{ value: 'one-more' }] },
      ),
    });
    expect(swap.status).toBe(200);
    expect(swap.body.roles).toHaveLength(5);
  });

  it('maxAttributeValues: an attribute stored with more may shrink but not grow', async () => {
    const store = backend.store();
    const generous = setup({ store, maxAttributeValues: 8 });
    const user = await generous.createUser('grace@example.org', { roles: roles(8) });
    const { request } = setup({ store, maxAttributeValues: 5 });
    const grow = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'add', path: 'roles', value: [{ value: 'x' }] }),
    });
    expect(grow.status).toBe(400);
    const shrink = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'remove', path: 'roles[value eq "r7"]' }),
    });
    expect(shrink.status).toBe(200);
    expect(shrink.body.roles).toHaveLength(7);
  });

  it('maxPatchWork: a PATCH over its budget answers 400 invalidValue and changes nothing', async () => {
    const { request, createUser } = service({ maxPatchWork: 40_000 });
    const user = await createUser('edsger@example.org', { roles: roles(200) });
    // `sw` cannot use an index: 10 operations × 200 values cost more than 40,000 units.
    const ops = Array.from({ length: 10 }, (_, i) => ({
      op: 'remove',
      path: `roles[value sw "r${i}"]`,
    }));
    const reply = await request('PATCH', `/Users/${user.id}`, { body: patchBody(...ops) });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
    expect(reply.body.detail).toMatch(/more than 40,000 units of work \(maxPatchWork\)/);
    expect((await request('GET', `/Users/${user.id}`)).body).toEqual(user);
    // The same changes as `eq` filters come from the index and fit.
    const indexed = ops.map((_, i) => ({ op: 'remove', path: `roles[value eq "r${i}"]` }));
    const ok = await request('PATCH', `/Users/${user.id}`, { body: patchBody(...indexed) });
    expect(ok.status).toBe(200);
    expect(ok.body.roles).toHaveLength(190);
  });

  it('maxPatchWork counts what each test costs: many `co` terms over long non-ASCII roles are refused, and nothing is written', async () => {
    const { request, createUser } = service();
    // Each test folds a 48-character non-ASCII value: a visit of a value counts for little.
    const long = (i: number) => `Élève-Ωμέγα-${i}-`.padEnd(48, 'é');
    const user = await createUser('emmy@example.org', {
      roles: Array.from({ length: 2_000 }, (_, i) => ({ value: long(i) })),
    });
    const terms = (op: number) =>
      Array.from({ length: 150 }, (_, k) => `value co "ø${op}-${k}"`).join(' or ');
    const ops = Array.from({ length: 20 }, (_, i) => ({
      op: 'remove',
      path: `roles[${terms(i)}]`,
    }));
    const reply = await request('PATCH', `/Users/${user.id}`, { body: patchBody(...ops) });
    expect(reply.status).toBe(400);
    expect(reply.body.scimType).toBe('invalidValue');
    // Refused within the first of the 20 operations: the budget stops the work where it runs out.
    expect(reply.body.detail).toMatch(
      /^Operation 1: .*more than 20,000,000 units of work \(maxPatchWork\)/,
    );
    const after = await request('GET', `/Users/${user.id}`);
    expect(after.body).toEqual(user);
    expect(after.body.meta.version).toBe(user.meta.version);
    // A fair PATCH over the same long list still applies: one `co` filter, one match.
    const fair = await request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'remove', path: `roles[value co "Ωμέγα-7-é"]` }),
    });
    expect(fair.status).toBe(200);
    expect(fair.body.roles).toHaveLength(1_999);
  });
});

describe('defaults', () => {
  it('maxAttributeValues is 10,000', async () => {
    const { request } = setup();
    const post = (n: number, userName: string) =>
      request('POST', '/Users', { body: { schemas: [USER_SCHEMA], userName, roles: roles(n) } });
    expect((await post(10_001, 'a@example.org')).status).toBe(400);
    expect((await post(10_000, 'b@example.org')).status).toBe(201);
  });

  it('the PATCH of the report: 1,000 value filters on 15,000 roles, within the default budget', async () => {
    const { request, createUser } = setup({ maxAttributeValues: 15_000 });
    const user = await createUser('ada@example.org', { roles: roles(15_000) });
    const ops = Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0
        ? { op: 'remove', path: `roles[value eq "r${i * 13}"]` }
        : {
            op: 'replace',
            path: `roles[value eq "r${i * 13}"]`,
            value: { value: `r${i * 13}`, display: 'x' },
          },
    );
    const reply = await request('PATCH', `/Users/${user.id}`, { body: patchBody(...ops) });
    expect(reply.status).toBe(200);
    expect(reply.body.roles).toHaveLength(14_500);
    expect(reply.body.roles[0]).toEqual({ value: 'r1' });
    expect(reply.body.roles).toContainEqual({ value: 'r13', display: 'x' });
  });
});
