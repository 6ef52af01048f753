// The directory event log as a host reads it through `scim.events`: every committed write of
// every type (single requests and Bulk) leaves its events, a refused write none, in commit
// order, resumable from any cursor, on every bundled store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defineAttribute,
  defineSchema,
  type LoggedEvent,
  type ResourceStore,
  type Scim,
  type ScimEvent,
} from '../../src/index.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import { PostgresResourceStore } from '../../src/stores/postgres/index.js';
import { backends } from '../stores/postgres/harness.js';
import { isScimError } from '../../src/errors/index.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { KEY_B, patchBody, setup, USER_SCHEMA } from '../core/harness.js';
import { has, readUntil } from './read-feed.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

// The events from the first one about `id` on.
const from = (events: readonly LoggedEvent[], id: string) =>
  events.slice(events.findIndex((e) => e.data.id === id));

// Every event of tenant-a after `after`, page by page.
async function readAll(scim: Scim, after?: string, limit = 3): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  let cursor = after;
  for (let i = 0; i < 1000; i++) {
    const page = await scim.events.list('tenant-a', { after: cursor, limit });
    all.push(...page.events);
    if (page.events.length === 0) return all;
    cursor = page.next;
  }
  throw new Error('the feed did not end');
}

describe.each(everyStore)('the event log on $name', ({ open }) => {
  let opened: OpenedStore;
  let h: ReturnType<typeof setup>;

  beforeAll(async () => {
    opened = await open();
    h = setup({ store: opened.store });
  }, 60_000);
  afterAll(() => opened?.close());

  it('records the events of each committed write, in commit order, with the resource', async () => {
    const ada = await h.createUser('ada@example.org', { active: true });
    const patched = await h.request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Ada L.' }),
    });
    expect(patched.status).toBe(200);
    await h.request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    const bob = await h.createUser('bob@example.org');
    const group = await h.request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Class 4B', members: [{ value: ada.id }] },
    });
    expect(group.status).toBe(201);
    const gid = group.body.id as string;
    await h.request('PATCH', `/Groups/${gid}`, {
      body: patchBody(
        { op: 'add', path: 'members', value: [{ value: bob.id }] },
        { op: 'remove', path: `members[value eq "${ada.id}"]` },
      ),
    });
    await h.request('DELETE', `/Users/${bob.id}`);
    await h.request('DELETE', `/Groups/${gid}`);

    const events = from(await readUntil(h.scim, has('group.deleted', gid)), ada.id);
    expect(events.map((e) => e.type)).toEqual([
      'user.created',
      'user.invited',
      'user.updated',
      'user.updated',
      'user.deactivated',
      'user.created',
      'group.created',
      'group.member_added',
      'group.member_removed',
      'group.member_added',
      'user.deleted',
      'group.member_removed',
      'group.deleted',
    ]);
    const [created, invited, renamed, , deactivated] = events;
    expect(created?.tenant).toBe('tenant-a');
    expect(created?.data).toMatchObject({ id: ada.id, resourceType: 'User' });
    expect(created?.data.resource).toMatchObject({ id: ada.id, userName: 'ada@example.org' });
    expect(Date.parse(created?.occurredAt ?? '')).not.toBeNaN();
    // Created active by a service with a mailer: its welcome email is asked for in the write.
    expect(invited?.data).toMatchObject({ id: ada.id, resourceType: 'User' });
    expect(invited?.occurredAt).toBe(created?.occurredAt);
    // Both carry the user whole, however the store keeps what two events of a write share.
    expect(invited?.data.resource).toEqual(created?.data.resource);
    expect(Object.keys(deactivated?.data ?? {}).sort()).toEqual(['id', 'resource', 'resourceType']);
    expect(renamed?.data.changed).toEqual(['displayName']);
    expect(renamed?.data.resource).toMatchObject({ displayName: 'Ada L.' });
    expect(deactivated?.data.resource).toMatchObject({ active: false });
    const added = events[7];
    expect(added?.data).toMatchObject({
      id: gid,
      groupId: gid,
      userId: ada.id,
      memberType: 'User',
    });
    expect(events[6]?.data.resource).toMatchObject({ id: gid, displayName: 'Class 4B' });
    expect(events[6]?.data.resource).not.toHaveProperty('members');
    // A deletion carries the resource as it stood.
    expect(events[10]?.data.resource).toMatchObject({ id: bob.id, userName: 'bob@example.org' });
    expect(events[11]?.data).toMatchObject({ groupId: gid, userId: bob.id, memberType: 'User' });
    expect(events[12]?.data.resource).toMatchObject({ id: gid, displayName: 'Class 4B' });
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it('records nothing for a refused write (409, 412, 404, 400) or one that changes nothing', async () => {
    const ada = await h.createUser('refused@example.org');
    expect(
      (
        await h.request('POST', '/Users', {
          body: { schemas: [USER_SCHEMA], userName: 'refused@example.org' },
        })
      ).status,
    ).toBe(409);
    const stale = await h.request('PATCH', `/Users/${ada.id}`, {
      headers: { 'if-match': 'W/"99"' },
      body: patchBody({ op: 'replace', path: 'displayName', value: 'x' }),
    });
    expect(stale.status).toBe(412);
    expect((await h.request('DELETE', '/Users/nope')).status).toBe(404);
    const badMember = await h.request('POST', '/Groups', {
      body: { schemas: [GROUP_SCHEMA], displayName: 'Bad', members: [{ value: 'no-such-user' }] },
    });
    expect(badMember.status).toBe(400);
    const same = await h.request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'userName', value: 'refused@example.org' }),
    });
    expect(same.status).toBe(200);
    const marker = await h.createUser('after-refused@example.org');
    const events = from(await readUntil(h.scim, has('user.created', marker.id)), ada.id);
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ['user.created', ada.id],
      ['user.created', marker.id],
    ]);
  });

  it('records the same events for Bulk operations as for single requests', async () => {
    const reply = await h.request('POST', '/Bulk', {
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'],
        Operations: [
          {
            method: 'POST',
            path: '/Users',
            bulkId: 'u',
            data: { schemas: [USER_SCHEMA], userName: 'bulk@example.org' },
          },
          {
            method: 'POST',
            path: '/Groups',
            bulkId: 'g',
            data: {
              schemas: [GROUP_SCHEMA],
              displayName: 'Bulk',
              members: [{ value: 'bulkId:u' }],
            },
          },
        ],
      },
    });
    expect(reply.status).toBe(200);
    const [userId, groupId] = (reply.body.Operations as { location: string }[]).map(
      (op) => op.location.split('/').pop() as string,
    );
    const events = from(
      await readUntil(h.scim, has('group.member_added', groupId as string)),
      userId as string,
    );
    expect(events.map((e) => e.type)).toEqual([
      'user.created',
      'group.created',
      'group.member_added',
    ]);
  });

  it('keeps tenants apart and filters by type', async () => {
    const theirs = await h.createUser('other-tenant@example.org', {}, KEY_B);
    const mine = await h.createUser('types@example.org', { active: true });
    await h.request('PATCH', `/Users/${mine.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    const deactivations = await readUntil(h.scim, has('user.deactivated', mine.id), 'tenant-a', [
      'user.deactivated',
    ]);
    expect(deactivations.every((e) => e.type === 'user.deactivated')).toBe(true);
    expect(deactivations.filter((e) => e.data.id === mine.id)).toHaveLength(1);
    const b = await readUntil(h.scim, has('user.created', theirs.id), 'tenant-b');
    expect(b.every((e) => e.tenant === 'tenant-b')).toBe(true);
    expect(deactivations.some((e) => e.data.id === theirs.id)).toBe(false);
  });

  it('moves a read of some types past the events of other types it passed', async () => {
    const types = ['user.deactivated'];
    const page = async (options: { after?: string | undefined; types?: string[] }) =>
      await h.scim.events.list('tenant-a', { limit: 50, ...options });
    let cursor: string | undefined;
    for (let i = 0; i < 400; i++) {
      const read = await page({ after: cursor, types });
      cursor = read.next;
      if (read.events.length === 0) break;
    }
    let last = '';
    for (let i = 0; i < 3; i++) last = (await h.createUser(`passed-${i}@example.org`)).id as string;
    // The creates are passed once the feed shows them (a server may hold them back a moment).
    for (let i = 0; i < 200; i++) {
      const read = await page({ after: cursor, types });
      expect(read.events).toEqual([]);
      if (read.next !== cursor) {
        cursor = read.next;
        const rest = await page({ after: cursor });
        if (!rest.events.some((e) => e.data.id === last)) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const after = await page({ after: cursor });
    expect(after.events.map((e) => e.data.id)).not.toContain(last);
    // What comes after that position is listed, of the types asked for.
    const user = await h.createUser('passed-then-deactivated@example.org', { active: true });
    await h.request('PATCH', `/Users/${user.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    const later: LoggedEvent[] = [];
    for (let i = 0; i < 200 && later.length === 0; i++) {
      const read = await page({ after: cursor, types });
      later.push(...read.events);
      if (later.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(later.map((e) => [e.type, e.data.id])).toEqual([['user.deactivated', user.id]]);
  });

  it('resumes from any cursor exactly once, and refuses a cursor it did not make', async () => {
    const all = await readAll(h.scim, undefined, 1000);
    for (const [i, event] of all.entries()) {
      // Events held back meanwhile (see readUntil) may follow: what was listed comes first.
      const rest = await readAll(h.scim, event.cursor, 4);
      const expected = all.slice(i + 1).map((e) => e.id);
      expect(rest.map((e) => e.id).slice(0, expected.length)).toEqual(expected);
    }
    const refused = await h.scim.events
      .list('tenant-a', { after: 'not a cursor!' })
      .catch((e: unknown) => e);
    expect(isScimError(refused) && refused.status === 400 && refused.scimType).toBe(
      'invalidCursor',
    );
    const badLimit = await h.scim.events.list('tenant-a', { limit: 0 }).catch((e: unknown) => e);
    expect(isScimError(badLimit) && badLimit.status).toBe(400);
  });
});

const ROOM = 'urn:example:params:scim:schemas:district:2.0:Room';
const roomSchema = defineSchema({
  id: ROOM,
  name: 'Room',
  description: 'A room',
  attributes: [
    defineAttribute('displayName', 'string', { required: true }),
    defineAttribute('number', 'integer', { uniqueness: 'server' }),
  ],
});

// A host type's store beside each bundled user store, recording into the same log.
const hostStores: { name: string; open: () => Promise<OpenedStore & { rooms: ResourceStore }> }[] =
  [
    {
      name: 'memory',
      open: async () => {
        const store = new MemoryUserStore();
        return {
          store,
          rooms: new MemoryResourceStore({ events: store.events }),
          close: async () => {},
        };
      },
    },
    ...backends.map(({ name, open }) => ({
      name,
      open: async () => {
        const backend = await open();
        const { executor, schema } = backend;
        const rooms = new PostgresResourceStore({ executor, schema, resourceType: 'Room' });
        return { store: backend.newStore(), rooms, close: () => backend.close() };
      },
    })),
  ];

describe.each(hostStores)("a host type's writes in the log on $name", ({ open }) => {
  let opened: OpenedStore & { rooms: ResourceStore };
  let h: ReturnType<typeof setup>;
  beforeAll(async () => {
    opened = await open();
    h = setup({
      store: opened.store,
      resourceTypes: [
        { name: 'Room', endpoint: '/Rooms', schema: roomSchema, store: opened.rooms },
      ],
    });
  }, 60_000);
  afterAll(() => opened?.close());

  it('records room.created|updated|deleted beside the users, none for a refused write', async () => {
    const user = await h.createUser('rooms@example.org');
    const created = await h.request('POST', '/Rooms', {
      body: { schemas: [ROOM], displayName: 'Lab', number: 7 },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const taken = await h.request('POST', '/Rooms', {
      body: { schemas: [ROOM], displayName: 'Other', number: 7 },
    });
    expect(taken.status).toBe(409);
    await h.request('PATCH', `/Rooms/${id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Lab 2' }),
    });
    expect((await h.request('DELETE', `/Rooms/${id}`)).status).toBe(204);
    const events = from(await readUntil(h.scim, has('room.deleted', id)), user.id);
    expect(events.map((e) => [e.type, e.data.id])).toEqual([
      ['user.created', user.id],
      ['room.created', id],
      ['room.updated', id],
      ['room.deleted', id],
    ]);
    expect(events[1]?.data).toMatchObject({
      resourceType: 'Room',
      resource: { displayName: 'Lab' },
    });
    expect(events[2]?.data).toMatchObject({
      changed: ['displayName'],
      resource: { displayName: 'Lab 2' },
    });
    expect(events[3]?.data.resource).toMatchObject({ id, displayName: 'Lab 2' });
  });
});

describe('the log and the in-process listeners', () => {
  it('hear of the same events of each write, with the same resource and changes', async () => {
    const h = setup();
    const heard: ScimEvent[] = [];
    h.scim.on((event) => heard.push(event));
    const ada = await h.createUser('ada@example.org', { active: true });
    await h.request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'active', value: false }),
    });
    await h.request('PATCH', `/Users/${ada.id}`, {
      body: patchBody({ op: 'replace', path: 'displayName', value: 'Ada' }),
    });
    await h.request('PUT', `/Users/${ada.id}`, {
      body: { schemas: [USER_SCHEMA], userName: 'ada@example.org', active: true },
    });
    const logged = await readAll(h.scim);
    expect(logged.map((e) => e.type)).toEqual(heard.map((e) => e.type));
    expect(logged.map((e) => e.occurredAt)).toEqual(heard.map((e) => e.at));
    for (const [i, event] of heard.entries()) {
      const data = logged[i]?.data;
      if (event.type === 'user.updated') {
        expect(data?.changed).toEqual(event.changed);
        expect(data?.resource).toEqual(event.after);
      } else if ('user' in event) expect(data?.resource).toEqual(event.user);
    }
    expect(heard.map((e) => e.type)).toEqual([
      'user.created',
      'user.invited',
      'user.updated',
      'user.deactivated',
      'user.updated',
      'user.updated',
      'user.reactivated',
    ]);
    await h.scim.close();
  });
});

describe('without a log', () => {
  it('serves as before, and scim.events refuses to list with a clear error', async () => {
    // No mailer either: a mailer needs the log.
    const h = setup({ store: new MemoryUserStore({ events: false }), mail: {} });
    await h.createUser('nolog@example.org');
    await expect(h.scim.events.list('tenant-a')).rejects.toThrow(/keeps no event log/);
  });
});

describe('retention', () => {
  it('purges events older than retentionDays, in bounded batches, and keeps the rest', async () => {
    let now = new Date('2026-01-01T00:00:00.000Z');
    const h = setup({ events: { retentionDays: 30 }, hooks: { now: () => now } });
    const old = await h.createUser('old@example.org');
    now = new Date('2026-01-20T00:00:00.000Z');
    const recent = await h.createUser('recent@example.org');
    now = new Date('2026-02-05T00:00:00.000Z');
    expect(await h.scim.events.purge()).toBe(1);
    const left = await readAll(h.scim);
    expect(left.map((e) => e.data.id)).toEqual([recent.id]);
    expect(left.map((e) => e.data.id)).not.toContain(old.id);
    await h.scim.close();
  });

  it('refuses a retention that is not a number of days > 0', () => {
    expect(() => setup({ events: { retentionDays: 0 } })).toThrow(/retentionDays/);
  });
});
