// Offboarding a tenant: `scim.tenants.delete` and `scim.tenants.export`, on every store (memory,
// PGlite, and the PostgreSQL server when SCIMKIT_TEST_DATABASE_URL is set), seeded over HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createScim,
  defineAttribute,
  defineSchema,
  MemoryKeyStore,
  toNdjson,
  type KeyStore,
  type DirectoryEvent,
  type ScimUser,
  type ResourceStore,
  type Scim,
  type ScimEvent,
  type ScimOptions,
  type UserStore,
  type WelcomeEmail,
} from '../../src/index.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import {
  PostgresKeyStore,
  PostgresResourceStore,
  type QueryExecutor,
} from '../../src/stores/postgres/index.js';
import { backends, makeUser } from '../stores/postgres/harness.js';

const BASE = '/scim/v2';
const PUBLIC = 'https://scim.example.org';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const ROOM = 'urn:example:params:scim:schemas:district:2.0:Room';
const roomSchema = defineSchema({
  id: ROOM,
  name: 'Room',
  description: 'A room',
  attributes: [defineAttribute('displayName', 'string', { required: true })],
});

interface Stores {
  readonly store: UserStore;
  readonly rooms: ResourceStore;
  readonly keys: KeyStore;
  /** The SQL executor and schema, to count rows no API shows (memberships). */
  readonly sql?: { executor: QueryExecutor; schema: string };
  close(): Promise<void>;
}

const everyBackend: { name: string; open: () => Promise<Stores> }[] = [
  {
    name: 'memory',
    open: () =>
      Promise.resolve({
        store: new MemoryUserStore(),
        rooms: new MemoryResourceStore(),
        keys: new MemoryKeyStore(),
        close: () => Promise.resolve(),
      }),
  },
  ...backends.map(({ name, open }) => ({
    name,
    open: async (): Promise<Stores> => {
      const b = await open();
      const { executor, schema } = b;
      return {
        store: b.newStore(),
        rooms: new PostgresResourceStore({ executor, schema, resourceType: 'Room', migrate: true }),
        keys: new PostgresKeyStore({ executor, schema, migrate: true, cacheMs: 0 }),
        sql: { executor, schema },
        close: () => b.close(),
      };
    },
  })),
];

interface Json {
  [key: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

// Every service a case made, closed after it: its welcome subscriber stops delivering.
const opened: Scim[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((scim) => scim.close()));
});

function service(stores: Stores, extra: Partial<ScimOptions> = {}) {
  const events: ScimEvent[] = [];
  const sent: WelcomeEmail[] = [];
  const scim: Scim = createScim({
    store: stores.store,
    verifier: stores.keys,
    basePath: BASE,
    resourceTypes: [{ name: 'Room', endpoint: '/Rooms', schema: roomSchema, store: stores.rooms }],
    onEvent: (event) => events.push(event),
    // A mail group given replaces the recording mailer (`mail: {}`: none).
    ...(extra.mail === undefined
      ? {
          mailer: {
            sendWelcome: (email: WelcomeEmail) => {
              sent.push(email);
              return Promise.resolve();
            },
          },
        }
      : {}),
    ...extra,
  });
  opened.push(scim);
  async function request(key: string, method: string, path: string, body?: unknown) {
    const response = await scim.handle({
      method,
      path: `${BASE}${path}`,
      query: method === 'GET' ? 'count=100' : '',
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/scim+json',
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      baseUrl: 'http://client.example',
    });
    return {
      status: response.status,
      body: (response.body ? JSON.parse(response.body) : undefined) as Json,
    };
  }
  return { scim, events, sent, request };
}

type Service = ReturnType<typeof service>;

/** A tenant's directory, made over HTTP: users, a group of users nested in another, rooms. */
async function seed(stores: Stores, svc: Service, tenant: string, users = 5) {
  const { secret: key } = await stores.keys.issue(tenant);
  const created = async (path: string, body: unknown) => {
    const reply = await svc.request(key, 'POST', path, body);
    if (reply.status !== 201) throw new Error(JSON.stringify(reply.body));
    return reply.body;
  };
  const userIds: string[] = [];
  for (let i = 0; i < users; i++) {
    const user = await created('/Users', {
      schemas: [USER],
      userName: `person${i}@${tenant}.example`,
    });
    userIds.push(user.id as string);
  }
  const inner = await created('/Groups', {
    schemas: [GROUP],
    displayName: 'Teachers',
    members: userIds.slice(0, 3).map((value) => ({ value })),
  });
  const outer = await created('/Groups', {
    schemas: [GROUP],
    displayName: 'Staff',
    members: [{ value: inner.id }, { value: userIds.at(-1) }],
  });
  const rooms = [
    await created('/Rooms', { schemas: [ROOM], displayName: 'Lab' }),
    await created('/Rooms', { schemas: [ROOM], displayName: 'Gym' }),
  ];
  return {
    key,
    userIds,
    groupIds: [inner.id as string, outer.id as string],
    roomIds: rooms.map((r) => r.id as string),
  };
}

/** What a client of the tenant sees: every resource of each type, read with a new key. */
async function visible(stores: Stores, svc: Service, tenant: string) {
  const { secret, id } = await stores.keys.issue(tenant);
  const seen: Record<string, Json[]> = {};
  for (const path of ['/Users', '/Groups', '/Rooms']) {
    const reply = await svc.request(secret, 'GET', path);
    expect(reply.status).toBe(200);
    seen[path] = reply.body.Resources as Json[];
  }
  await stores.keys.delete(id);
  return seen;
}

async function membershipRows(stores: Stores, tenant: string): Promise<number | undefined> {
  if (!stores.sql) return undefined;
  const { executor, schema } = stores.sql;
  const rows = await executor.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM "${schema}".group_members WHERE tenant = $1`,
    [tenant],
  );
  return rows[0]?.n;
}

describe.each(everyBackend)('tenants.delete on the $name store', ({ open }) => {
  let stores: Stores;
  beforeAll(async () => {
    stores = await open();
  });
  afterAll(() => stores.close());

  it('removes every resource, key and membership of the tenant and leaves others as they were', async () => {
    const svc = service(stores);
    const a = await seed(stores, svc, 'gone-1');
    await seed(stores, svc, 'kept-1');
    const keptBefore = await visible(stores, svc, 'kept-1');
    expect(await membershipRows(stores, 'gone-1')).toBe(stores.sql ? 5 : undefined);
    svc.events.length = 0;
    const steps: string[] = [];

    const result = await svc.scim.tenants.delete('gone-1', {
      batchSize: 2,
      onProgress: ({ step, deleted }) => steps.push(`${step}:${deleted}`),
    });

    expect(result).toEqual({ keys: 1, resources: { Group: 2, Room: 2, User: 5 } });
    expect(steps).toEqual(['keys:1', 'Group:2', 'Room:2', 'User:2', 'User:4', 'User:5']);
    // The tenant's key stops working, and is gone from the list.
    expect((await svc.request(a.key, 'GET', '/Users')).status).toBe(401);
    expect(await stores.keys.list('gone-1')).toEqual([]);
    expect(await visible(stores, svc, 'gone-1')).toEqual({
      '/Users': [],
      '/Groups': [],
      '/Rooms': [],
    });
    expect(await membershipRows(stores, 'gone-1')).toBe(stores.sql ? 0 : undefined);
    for (const id of a.userIds)
      expect(await stores.store.groups?.groupsOf('gone-1', id)).toEqual([]);
    // One event per resource, as a SCIM DELETE of each emits, and the membership the inner
    // group's deletion removed: groups go in id order, so the outer group still held it.
    const [inner, outer] = a.groupIds;
    const deleted = svc.events
      .map((e) =>
        'member' in e
          ? `${e.type}:${e.groupId}:${e.member.value}`
          : `${e.type}:${'id' in e ? e.id : ''}`,
      )
      .sort();
    expect(deleted).toEqual(
      [
        ...a.userIds.map((id) => `user.deleted:${id}`),
        ...a.groupIds.map((id) => `group.deleted:${id}`),
        `group.member_removed:${outer}:${inner}`,
        ...a.roomIds.map((id) => `resource.deleted:${id}`),
      ].sort(),
    );
    expect(svc.events.every((e) => e.tenant === 'gone-1')).toBe(true);
    expect(await visible(stores, svc, 'kept-1')).toEqual(keptBefore);
    expect(await membershipRows(stores, 'kept-1')).toBe(stores.sql ? 5 : undefined);
    expect(await stores.keys.list('kept-1')).toHaveLength(1);
  });

  it.each([
    ['users', (s: Stores) => s.store as unknown as Record<string, unknown>],
    ['groups', (s: Stores) => s.store.groups as unknown as Record<string, unknown>],
  ])('finishes on a second run after a crash midway through the %s', async (kind, target) => {
    const svc = service(stores);
    const tenant = `crash-${kind}`;
    await seed(stores, svc, tenant, 6);
    await seed(stores, svc, `${tenant}-kept`, 6);
    const keptBefore = await visible(stores, svc, `${tenant}-kept`);
    // The store fails after one deletion: what a crash of the process there leaves behind.
    const object = target(stores);
    const original = object['delete'] as (...args: unknown[]) => Promise<boolean>;
    let calls = 0;
    object['delete'] = (...args: unknown[]) => {
      calls += 1;
      if (calls > 1) return Promise.reject(new Error('connection lost'));
      return original.apply(object, args);
    };
    try {
      await expect(svc.scim.tenants.delete(tenant, { batchSize: 4 })).rejects.toThrow(
        'connection lost',
      );
    } finally {
      delete object['delete'];
    }
    const left = await visible(stores, svc, tenant);
    expect(left['/Users']!.length + left['/Groups']!.length).toBeGreaterThan(0);

    const rerun = await svc.scim.tenants.delete(tenant, { batchSize: 4 });
    expect(rerun.keys).toBe(0);
    expect(await visible(stores, svc, tenant)).toEqual({
      '/Users': [],
      '/Groups': [],
      '/Rooms': [],
    });
    expect(await membershipRows(stores, tenant)).toBe(stores.sql ? 0 : undefined);
    expect(await visible(stores, svc, `${tenant}-kept`)).toEqual(keptBefore);
  });

  it('sends no pending welcome email to the users of a deleted tenant', async () => {
    // A service without a mailer deletes, so that nothing is sent before the delete.
    const admin = service(stores, { mail: {} });
    const invited = (tenant: string, user: ScimUser): DirectoryEvent => ({
      id: `welcome-${user.id}`,
      type: 'user.invited',
      tenant,
      occurredAt: new Date().toISOString(),
      data: { id: user.id, resourceType: 'User', resource: user },
    });
    // Recorded with the users' writes and not sent yet, as after a crash before delivery.
    const gone = makeUser();
    const kept = makeUser();
    await stores.store.create('welcome-gone', gone, { events: [invited('welcome-gone', gone)] });
    await stores.store.create('welcome-kept', kept, { events: [invited('welcome-kept', kept)] });

    await admin.scim.tenants.delete('welcome-gone');
    const svc = service(stores);
    const ours = () => svc.sent.filter((e) => e.tenant.startsWith('welcome-'));
    // On a shared server the log shows the writes once older transactions (another test
    // file's) have ended: drain until it does.
    await expect
      .poll(
        async () => {
          await svc.scim.mail?.drain();
          return ours().map((e) => [e.tenant, e.idempotencyKey]);
        },
        { timeout: 10_000 },
      )
      .toEqual([['welcome-kept', `welcome-${kept.id}`]]);
    // Settled, not sent again by a later round.
    await svc.scim.mail?.drain();
    expect(ours()).toHaveLength(1);
  });

  it('refuses a malformed tenant id or batch size and deletes nothing', async () => {
    const svc = service(stores);
    await seed(stores, svc, 'refused', 1);
    const before = await visible(stores, svc, 'refused');
    await expect(svc.scim.tenants.delete('')).rejects.toThrow(TypeError);
    await expect(svc.scim.tenants.delete('refused', { batchSize: 0 })).rejects.toThrow(
      /batchSize must be a whole number from 1 to 10000/,
    );
    await expect(svc.scim.tenants.delete('refused', { batchSize: 1.5 })).rejects.toThrow(
      RangeError,
    );
    expect(await visible(stores, svc, 'refused')).toEqual(before);
    expect(await stores.keys.list('refused')).toHaveLength(1);
  });

  it('leaves the keys alone with keys: false', async () => {
    const svc = service(stores);
    await seed(stores, svc, 'keys-kept', 1);
    const result = await svc.scim.tenants.delete('keys-kept', { keys: false });
    expect(result).toEqual({ keys: 0, resources: { Group: 2, Room: 2, User: 1 } });
    expect(await stores.keys.list('keys-kept')).toHaveLength(1);
  });
});

describe.each(everyBackend)('tenants.export on the $name store', ({ open }) => {
  let stores: Stores;
  beforeAll(async () => {
    stores = await open();
  });
  afterAll(() => stores.close());

  async function collect(scim: Scim, tenant: string, pageSize?: number) {
    const out: Json[] = [];
    for await (const r of scim.tenants.export(tenant, pageSize === undefined ? {} : { pageSize }))
      out.push(r);
    return out;
  }

  it('streams every resource as SCIM JSON, users with groups and groups with members', async () => {
    const svc = service(stores, { publicBaseUrl: `${PUBLIC}/` });
    const a = await seed(stores, svc, 'export-1');
    await seed(stores, svc, 'export-other');
    const exported = await collect(svc.scim, 'export-1', 2);

    expect(exported.map((r) => r.meta.resourceType)).toEqual([
      ...a.userIds.map(() => 'User'),
      'Group',
      'Group',
      'Room',
      'Room',
    ]);
    expect(exported.map((r) => r.id)).toEqual([...a.userIds, ...a.groupIds, ...a.roomIds]);
    // Each one as a GET of it answers (the public base URL is fixed, whatever the request).
    for (const resource of exported) {
      const path = `/${String(resource.meta.location).split('/').slice(-2).join('/')}`;
      const got = await svc.request(a.key, 'GET', path);
      expect(resource).toEqual(got.body);
    }
    const [inner, outer] = a.groupIds;
    const first = exported[0]!;
    expect(first.meta.location).toBe(`${PUBLIC}${BASE}/Users/${a.userIds[0]}`);
    expect(first.groups).toEqual([
      {
        value: inner,
        $ref: `${PUBLIC}${BASE}/Groups/${inner}`,
        display: 'Teachers',
        type: 'direct',
      },
      {
        value: outer,
        $ref: `${PUBLIC}${BASE}/Groups/${outer}`,
        display: 'Staff',
        type: 'indirect',
      },
    ]);
    expect(exported[a.userIds.length + 1]!.members).toHaveLength(2);
    expect(JSON.stringify(exported)).not.toContain('export-other');
  });

  it('gives paths below the base path without a public base URL, and writes NDJSON', async () => {
    const svc = service(stores);
    const a = await seed(stores, svc, 'export-2', 3);
    const exported = await collect(svc.scim, 'export-2');
    expect(exported[0]!.meta.location).toBe(`${BASE}/Users/${a.userIds[0]}`);
    const group = exported.find((r) => r.id === a.groupIds[0])!;
    expect(group.members[0].$ref).toBe(`${BASE}/Users/${a.userIds[0]}`);

    let text = '';
    for await (const line of toNdjson(svc.scim.tenants.export('export-2'))) text += line;
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((line) => JSON.parse(line) as Json)).toEqual(exported);
  });

  it('reads the store a page at a time', async () => {
    const svc = service(stores);
    await seed(stores, svc, 'export-3', 7);
    const store = stores.store as unknown as Record<string, unknown>;
    const list = store['list'] as (tenant: string, query: { count: number }) => Promise<unknown>;
    const counts: number[] = [];
    store['list'] = (tenant: string, query: { count: number }) => {
      counts.push(query.count);
      return list.call(store, tenant, query);
    };
    try {
      expect(await collect(svc.scim, 'export-3', 3)).toHaveLength(11);
    } finally {
      delete store['list'];
    }
    expect(counts.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...counts)).toBe(3);
  });

  it('yields nothing for an unknown tenant and refuses a bad page size', async () => {
    const svc = service(stores);
    expect(await collect(svc.scim, 'nobody-here')).toEqual([]);
    await expect(collect(svc.scim, 'x', 0)).rejects.toThrow(RangeError);
    await expect(collect(svc.scim, '')).rejects.toThrow(TypeError);
  });
});
