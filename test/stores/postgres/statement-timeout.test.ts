// A statement past the PostgreSQL stores' statement timeout is cancelled by the server: the
// request answers 503 with Retry-After, nothing of it is written, and the connections stay
// usable. A lock held by another connection makes a statement slow on demand.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScimConfigError, defineAttribute, defineSchema } from '../../../src/index.js';
import {
  PostgresResourceStore,
  PostgresUserStore,
  pgExecutor,
  type QueryExecutor,
} from '../../../src/stores/postgres/index.js';
import { tableNames } from '../../../src/stores/postgres/table-names.js';
import { patchBody, setup, USER_SCHEMA, type Reply } from '../../core/harness.js';
import { backends, databaseUrl, openServer, type Backend } from './harness.js';

const ROOM = 'urn:example:params:scim:schemas:district:2.0:Room';
const roomSchema = defineSchema({
  id: ROOM,
  name: 'Room',
  description: 'A room',
  attributes: [defineAttribute('displayName', 'string', { required: true })],
});
const TIMEOUT_MS = 300;

/** Holds `lock` (SQL) on another connection until the returned function is called. */
async function holdLock(executor: QueryExecutor, lock: string): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const taken = new Promise<void>((resolve) => (locked = resolve));
  const done = executor.transaction(async (tx) => {
    await tx.query(lock);
    locked();
    await released;
  });
  await taken;
  return async () => {
    release();
    await done;
  };
}

function expectUnavailable(reply: Reply): void {
  expect(reply.status).toBe(503);
  expect(reply.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
  expect(reply.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
  expect(reply.body.status).toBe('503');
  expect(reply.body.detail).toMatch(/took too long.*nothing was changed/i);
}

describe.each(
  databaseUrl
    ? [
        { name: 'prepared', prepare: true },
        { name: 'unprepared', prepare: false },
      ]
    : [],
)('statement timeout on a PostgreSQL server ($name statements)', ({ prepare }) => {
  let backend: Backend;
  let pool: pg.Pool;
  let harness: ReturnType<typeof setup>;
  let executor: QueryExecutor;
  const t = () => tableNames({ schema: backend.schema });

  beforeAll(async () => {
    backend = await openServer(databaseUrl ?? '');
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    executor = pgExecutor(pool, { prepare });
    const options = { executor, schema: backend.schema, statementTimeoutMs: TIMEOUT_MS };
    const store = new PostgresUserStore({ ...options, migrate: true });
    await store.migrate();
    const rooms = new PostgresResourceStore({ ...options, resourceType: 'Room' });
    harness = setup({
      store,
      resourceTypes: [{ name: 'Room', endpoint: '/Rooms', schema: roomSchema, store: rooms }],
    });
  });
  afterAll(async () => {
    await pool?.end();
    await backend?.close();
  });

  it('answers a list blocked past the timeout with 503, then answers again', async () => {
    await harness.createUser('blocked-read@example.org');
    const release = await holdLock(
      backend.other,
      `LOCK TABLE ${t().users} IN ACCESS EXCLUSIVE MODE`,
    );
    const query = 'filter=name.givenName co "x"';
    try {
      expectUnavailable(await harness.request('GET', '/Users', { query }));
    } finally {
      await release();
    }
    const again = await harness.request('GET', '/Users', { query: 'count=100' });
    expect(again.status).toBe(200);
    expect(again.body.totalResults).toBeGreaterThan(0);
  });

  it('refuses a create blocked past the timeout with 503 and writes neither user nor email', async () => {
    const release = await holdLock(
      backend.other,
      `LOCK TABLE ${t().users} IN ACCESS EXCLUSIVE MODE`,
    );
    try {
      const reply = await harness.request('POST', '/Users', {
        body: { schemas: [USER_SCHEMA], userName: 'slow-create@example.org', active: true },
      });
      expectUnavailable(reply);
    } finally {
      await release();
    }
    const users = await backend.executor.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${t().users} WHERE user_name = 'slow-create@example.org'`,
    );
    const mail = await backend.executor.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${t().events}
       WHERE type = 'user.invited' AND event::text LIKE '%slow-create%'`,
    );
    expect([users[0]?.n, mail[0]?.n]).toEqual([0, 0]);
  });

  it('refuses a PATCH that waits for a locked user with 503 and keeps the user as it was', async () => {
    const user = await harness.createUser('slow-patch@example.org');
    const before = await harness.request('GET', `/Users/${user.id}`);
    const release = await holdLock(
      backend.other,
      `SELECT 1 FROM ${t().users} WHERE id = '${user.id}' FOR UPDATE`,
    );
    const change = patchBody({ op: 'replace', path: 'displayName', value: 'Changed' });
    try {
      expectUnavailable(await harness.request('PATCH', `/Users/${user.id}`, { body: change }));
    } finally {
      await release();
    }
    const after = await harness.request('GET', `/Users/${user.id}`);
    expect(after.body).toEqual(before.body);
    expect((await harness.request('PATCH', `/Users/${user.id}`, { body: change })).status).toBe(
      200,
    );
  });

  it('rolls back a group write whose statement waits past the timeout', async () => {
    const created = await harness.request('POST', '/Groups', {
      body: { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Staff' },
    });
    expect(created.status).toBe(201);
    const user = await harness.createUser('slow-member@example.org');
    const release = await holdLock(
      backend.other,
      `LOCK TABLE ${t().groupMembers} IN ACCESS EXCLUSIVE MODE`,
    );
    const add = patchBody({ op: 'add', path: 'members', value: [{ value: user.id }] });
    try {
      expectUnavailable(
        await harness.request('PATCH', `/Groups/${created.body.id}`, { body: add }),
      );
    } finally {
      await release();
    }
    const group = await harness.request('GET', `/Groups/${created.body.id}`);
    expect(group.body.members).toBeUndefined();
    expect(group.body.meta.version).toBe(created.body.meta.version);
  });

  it('refuses a host resource write blocked past the timeout with 503 and writes nothing', async () => {
    const release = await holdLock(
      backend.other,
      `LOCK TABLE ${t().resources} IN ACCESS EXCLUSIVE MODE`,
    );
    try {
      const reply = await harness.request('POST', '/Rooms', {
        body: { schemas: [ROOM], displayName: 'Lab' },
      });
      expectUnavailable(reply);
    } finally {
      await release();
    }
    const list = await harness.request('GET', '/Rooms');
    expect(list.body.totalResults).toBe(0);
  });

  it('leaves statements the host sends through the executor without a timeout', async () => {
    await harness.request('GET', '/Users');
    // Both pooled connections served the store; neither keeps its timeout for the host.
    const slow = Array.from({ length: 2 }, () =>
      executor.query(`SELECT pg_sleep(${(TIMEOUT_MS * 2) / 1000})`),
    );
    await expect(Promise.all(slow)).resolves.toHaveLength(2);
    await expect(
      executor.transaction((tx) => tx.query(`SELECT pg_sleep(${(TIMEOUT_MS * 2) / 1000})`)),
    ).resolves.toHaveLength(1);
    expect((await harness.request('GET', '/Users')).status).toBe(200);
  });
});

describe('the statementTimeoutMs option', () => {
  it.each([-1, 1.5, '5000', Number.NaN])('refuses %s at construction', (value) => {
    const executor = {} as QueryExecutor;
    const options = { executor, statementTimeoutMs: value as number };
    expect(() => new PostgresUserStore(options)).toThrow(ScimConfigError);
    expect(() => new PostgresResourceStore({ ...options, resourceType: 'Room' })).toThrow(
      /statementTimeoutMs/,
    );
  });

  describe.each(backends)('on $name', ({ open }) => {
    let backend: Backend;
    beforeAll(async () => {
      backend = await open();
    });
    afterAll(() => backend?.close());

    it('answers requests under a timeout as without one', async () => {
      const store = new PostgresUserStore({
        executor: backend.executor,
        schema: backend.schema,
        migrate: true,
        statementTimeoutMs: 60_000,
      });
      const { request, createUser } = setup({ store });
      const user = await createUser('bounded@example.org');
      const list = await request('GET', '/Users', {
        query: 'filter=userName eq "BOUNDED@example.org"',
      });
      expect(list.body.Resources.map((u: { id: string }) => u.id)).toEqual([user.id]);
    });
  });
});
