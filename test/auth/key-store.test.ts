import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createScim,
  KeyStore,
  KeyStoreError,
  MemoryKeyStore,
  type ApiKeyRecords,
  type KeyStoreOptions,
  type StoredApiKey,
} from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresKeyStore } from '../../src/stores/postgres/index.js';
import { backends, type Backend } from '../stores/postgres/harness.js';

const MINUTE = 60_000;
const KEY = /^scimkit_([0-9a-f]{16})_[A-Za-z0-9_-]{43}$/;

/** A key store under test: `make` opens one more instance on the same keys where it can. */
interface KeyStoreKind {
  readonly name: string;
  open(): Promise<{
    make(options: KeyStoreOptions): KeyStore;
    backend?: Backend;
    close(): Promise<void>;
  }>;
}

const kinds: KeyStoreKind[] = [
  {
    name: 'memory',
    open: async () => {
      const store = new MemoryKeyStore({ now: () => clock.now });
      return { make: () => store, close: async () => undefined };
    },
  },
  ...backends.map(({ name, open }) => ({
    name,
    open: async () => {
      const backend = await open();
      const { executor, schema } = backend;
      return {
        backend,
        make: (options: KeyStoreOptions) =>
          new PostgresKeyStore({ executor, schema, migrate: true, ...options }),
        close: () => backend.close(),
      };
    },
  })),
];

const clock = { now: Date.UTC(2026, 0, 1) };
let sequence = 0;
const tenantName = () => `district-${++sequence}`;

async function refused(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeyStoreError);
  expect((error as KeyStoreError).code).toBe(code);
}

describe.each(kinds)('key store on $name', (kind) => {
  let opened: Awaited<ReturnType<KeyStoreKind['open']>>;
  let keys: KeyStore;
  beforeAll(async () => {
    opened = await kind.open();
    keys = opened.make({ now: () => clock.now });
  });
  afterAll(() => opened.close());

  it('issues a scimkit_ key with 256 random bits once, and verifies it to its tenant', async () => {
    const tenant = tenantName();
    const issued = await keys.issue(tenant, { label: 'entra' });
    expect(issued.secret).toMatch(KEY);
    expect(KEY.exec(issued.secret)?.[1]).toBe(issued.id);
    expect(await keys.verify(issued.secret)).toEqual({
      id: tenant,
      scopes: ['scim:read', 'scim:write'],
    });
    // The use is recorded in the background.
    await vi.waitFor(async () => expect((await keys.list(tenant))[0]?.lastUsedAt).not.toBeNull());
    const listed = await keys.list(tenant);
    expect(JSON.stringify(listed)).not.toContain(issued.secret.slice(26));
    expect(listed).toEqual([
      {
        id: issued.id,
        tenant,
        profile: null,
        scopes: ['scim:read', 'scim:write'],
        label: 'entra',
        createdAt: new Date(clock.now),
        expiresAt: null,
        revokedAt: null,
        lastUsedAt: new Date(clock.now),
        status: 'active',
      },
    ]);
  });

  it('carries the scopes and profile it was issued with', async () => {
    const tenant = tenantName();
    const { secret } = await keys.issue(tenant, { scopes: ['scim:read'], profile: 'okta' });
    expect(await keys.verify(secret)).toEqual({
      id: tenant,
      profile: 'okta',
      scopes: ['scim:read'],
    });
  });

  it('refuses a wrong secret, a damaged key and anything not shaped like a key', async () => {
    const a = await keys.issue(tenantName());
    const b = await keys.issue(tenantName());
    const last = a.secret.at(-1) === 'A' ? 'B' : 'A';
    for (const token of [
      a.secret.slice(0, -1) + last,
      `scimkit_${a.id}_${b.secret.slice(26)}`,
      a.secret + 'x',
      a.secret.toUpperCase(),
      `scimkit_${a.id}`,
      '',
      'not-a-key',
    ])
      expect(await keys.verify(token)).toBeNull();
  });

  it('lists only the keys of the tenant asked for, oldest first', async () => {
    const tenant = tenantName();
    const first = await keys.issue(tenant, { label: 'one' });
    clock.now += 1000;
    const second = await keys.issue(tenant, { label: 'two' });
    await keys.issue(tenantName());
    expect((await keys.list(tenant)).map((k) => k.id)).toEqual([first.id, second.id]);
  });

  it('stops a revoked key at once, and says so for an unknown id', async () => {
    const tenant = tenantName();
    const { id, secret } = await keys.issue(tenant);
    expect(await keys.verify(secret)).not.toBeNull();
    await keys.revoke(id);
    expect(await keys.verify(secret)).toBeNull();
    expect((await keys.list(tenant))[0]?.status).toBe('revoked');
    await refused(keys.revoke('0000000000000000'), 'unknownKey');
  });

  it('deletes a key: it stops at once and leaves the list; deleting again does nothing', async () => {
    const tenant = tenantName();
    const gone = await keys.issue(tenant);
    const kept = await keys.issue(tenant);
    expect(await keys.verify(gone.secret)).not.toBeNull();
    await keys.delete(gone.id);
    expect(await keys.verify(gone.secret)).toBeNull();
    expect((await keys.list(tenant)).map((k) => k.id)).toEqual([kept.id]);
    await keys.delete(gone.id);
    expect(await keys.verify(kept.secret)).not.toBeNull();
  });

  it('stops a key at its expiry', async () => {
    const tenant = tenantName();
    const { secret } = await keys.issue(tenant, { expiresAt: new Date(clock.now + MINUTE) });
    expect(await keys.verify(secret)).not.toBeNull();
    clock.now += MINUTE;
    expect(await keys.verify(secret)).toBeNull();
    expect((await keys.list(tenant))[0]?.status).toBe('expired');
  });

  it('rotates: the successor works at once, the old key until the overlap ends', async () => {
    const tenant = tenantName();
    const old = await keys.issue(tenant, {
      scopes: ['scim:read'],
      label: 'entra',
      expiresAt: new Date(clock.now + 90 * 24 * 60 * MINUTE),
    });
    clock.now += MINUTE;
    const next = await keys.rotate(old.id, { overlapMs: 10 * MINUTE });
    expect(next.id).not.toBe(old.id);
    expect(next.secret).toMatch(KEY);
    expect(next).toMatchObject({ tenant, scopes: ['scim:read'], label: 'entra' });
    // The same lifetime as the old key, counted from the rotation.
    expect(next.expiresAt).toEqual(new Date(clock.now + 90 * 24 * 60 * MINUTE));
    expect(await keys.verify(old.secret)).not.toBeNull();
    expect(await keys.verify(next.secret)).not.toBeNull();
    clock.now += 10 * MINUTE;
    expect(await keys.verify(old.secret)).toBeNull();
    expect(await keys.verify(next.secret)).toEqual({ id: tenant, scopes: ['scim:read'] });
  });

  it('refuses to rotate an unknown, revoked or expired key, and issues nothing', async () => {
    const tenant = tenantName();
    await refused(keys.rotate('0000000000000000'), 'unknownKey');
    const revoked = await keys.issue(tenant);
    await keys.revoke(revoked.id);
    await refused(keys.rotate(revoked.id), 'inactiveKey');
    const expiring = await keys.issue(tenant, { expiresAt: new Date(clock.now + 1000) });
    clock.now += 1000;
    await refused(keys.rotate(expiring.id), 'inactiveKey');
    expect(await keys.list(tenant)).toHaveLength(2);
  });

  it('writes the last-used time at most once a minute per key', async () => {
    const tenant = tenantName();
    const { secret } = await keys.issue(tenant);
    const lastUsed = async () => (await keys.list(tenant))[0]?.lastUsedAt ?? null;
    expect(await lastUsed()).toBeNull();
    const first = clock.now;
    await keys.verify(secret);
    await vi.waitFor(async () => expect(await lastUsed()).toEqual(new Date(first)));
    clock.now += 30_000;
    await keys.verify(secret);
    clock.now += 29_000;
    await keys.verify(secret);
    expect(await lastUsed()).toEqual(new Date(first));
    clock.now += 1_000;
    await keys.verify(secret);
    await vi.waitFor(async () => expect(await lastUsed()).toEqual(new Date(clock.now)));
  });

  it.each([
    ['an empty tenant', '', {}],
    ['a tenant over 512 characters', 'd'.repeat(513), {}],
    ['no scope', 'district-x', { scopes: [] }],
    ['an unknown scope', 'district-x', { scopes: ['scim:admin'] }],
    ['a past expiry', 'district-x', { expiresAt: new Date(0) }],
    ['a label over 200 characters', 'district-x', { label: 'l'.repeat(201) }],
  ])('refuses to issue a key with %s', async (_case, tenant, options) => {
    await refused(keys.issue(tenant, options as never), 'invalidInput');
    if (tenant === 'district-x') expect(await keys.list(tenant)).toEqual([]);
  });

  it('serves createScim: scopes hold, a revoked key answers 401', async () => {
    const scim = createScim({
      store: new MemoryUserStore(),
      verifier: keys,
      mailer: { sendWelcome: () => Promise.resolve() },
    });
    const tenant = tenantName();
    const reader = await keys.issue(tenant, { scopes: ['scim:read'] });
    const writer = await keys.issue(tenant);
    const send = (key: string, method: string) =>
      scim.handle({
        method,
        path: '/Users',
        query: {},
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/scim+json' },
        body:
          method === 'POST'
            ? JSON.stringify({
                schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
                userName: `a@${tenant}.org`,
              })
            : undefined,
        baseUrl: 'http://localhost',
      });
    expect((await send(reader.secret, 'GET')).status).toBe(200);
    expect((await send(reader.secret, 'POST')).status).toBe(403);
    expect((await send(writer.secret, 'POST')).status).toBe(201);
    await keys.revoke(writer.id);
    expect((await send(writer.secret, 'GET')).status).toBe(401);
    await scim.close();
  });
});

describe.each(backends)('key store on $name, seen from two instances', ({ open }) => {
  let backend: Backend;
  let a: PostgresKeyStore;
  let b: PostgresKeyStore;
  beforeAll(async () => {
    backend = await open();
    const { schema } = backend;
    const now = () => clock.now;
    a = new PostgresKeyStore({ executor: backend.executor, schema, migrate: true, now });
    b = new PostgresKeyStore({ executor: backend.other, schema, migrate: true, now });
  });
  afterAll(() => backend.close());

  it('keeps only the SHA-256 of the key', async () => {
    const { id, secret } = await a.issue(tenantName());
    const rows = await backend.executor.query<{ row: string; hash: string }>(
      `SELECT k::text AS row, hash FROM "${backend.schema}".api_keys k WHERE id = $1`,
      [id],
    );
    expect(rows[0]?.row).not.toContain(secret.slice(26));
    expect(rows[0]?.hash).toBe(createHash('sha256').update(secret).digest('hex'));
  });

  it('a key issued on one instance works on the other at once', async () => {
    const { secret } = await a.issue(tenantName());
    expect(await b.verify(secret)).not.toBeNull();
  });

  it('a revocation on one instance holds on the other within the 5 s bound', async () => {
    const { id, secret } = await a.issue(tenantName());
    expect(await b.verify(secret)).not.toBeNull();
    await a.revoke(id);
    clock.now += 5_000;
    expect(await b.verify(secret)).toBeNull();
  });

  it("a rotation's overlap holds on the other instance within the bound", async () => {
    const old = await a.issue(tenantName());
    expect(await b.verify(old.secret)).not.toBeNull();
    await a.rotate(old.id, { overlapMs: 0 });
    clock.now += 5_000;
    expect(await b.verify(old.secret)).toBeNull();
  });
});

describe('a key store on records that cannot delete', () => {
  it('revokes the key instead, and keeps its record', async () => {
    const rows = new Map<string, StoredApiKey>();
    const records: ApiKeyRecords = {
      insert: (key) => Promise.resolve(void rows.set(key.id, key)),
      find: (id) => Promise.resolve(rows.get(id) ?? null),
      list: (tenant) => Promise.resolve([...rows.values()].filter((k) => k.tenant === tenant)),
      revoke: (id, at) => {
        const key = rows.get(id);
        if (key) rows.set(id, { ...key, revokedAt: at });
        return Promise.resolve(key !== undefined);
      },
      rotate: () => Promise.resolve(false),
      touch: () => Promise.resolve(),
    };
    const keys = new KeyStore(records);
    const { id, secret } = await keys.issue('district-x');
    await keys.delete(id);
    expect(await keys.verify(secret)).toBeNull();
    expect((await keys.list('district-x')).map((k) => [k.id, k.status])).toEqual([[id, 'revoked']]);
  });
});
