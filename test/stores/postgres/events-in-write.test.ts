// The events a PostgreSQL write records are inserted by the write's own statement: recorded
// exactly when that statement wrote, in the write's
// transaction and order. Covers the variants the store conformance cases do not reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectoryEvent, DirectoryEventType } from '../../../src/contracts/event-log.js';
import type { ScimResource } from '../../../src/contracts/resource-store.js';
import { newId } from '../../../src/core/resources/new-id.js';
import type { ScimGroup } from '../../../src/schema/group-schema.js';
import { GROUP_SCHEMA } from '../../../src/schema/urns.js';
import { EVENTS_PER_STATEMENT } from '../../../src/stores/postgres/event-statements.js';
import {
  PostgresResourceStore,
  type PostgresUserStore,
} from '../../../src/stores/postgres/index.js';
import { backends, makeUser, type Backend } from './harness.js';

const STAMP = '2025-01-01T00:00:00.000Z';
const meta = <T extends string>(resourceType: T, version = 'W/"1"') => ({
  resourceType,
  created: STAMP,
  lastModified: STAMP,
  version,
});

for (const { name, open } of backends) {
  describe(`events recorded by the write's statement (${name})`, () => {
    let backend: Backend;
    let store: PostgresUserStore;
    let tenant: string;

    const event = (type: DirectoryEventType, id: string): DirectoryEvent => ({
      id: newId(),
      type,
      tenant,
      occurredAt: new Date().toISOString(),
      data: { id, resourceType: 'User' },
    });
    /** The tenant's logged events in feed order, with the transaction that wrote each. */
    const logged = async () =>
      (
        await backend.executor.query<{ id: string; xid: string }>(
          `SELECT event->>'id' AS id, xid::text AS xid FROM ${backend.tables.events}
          WHERE tenant = $1 ORDER BY xid, seq`,
          [tenant],
        )
      ).map((row) => ({ id: row.id, xid: row.xid }));
    const loggedIds = async () => (await logged()).map((row) => row.id);
    beforeAll(async () => {
      backend = await open();
      store = backend.newStore();
      await store.migrate();
    }, 60_000);
    afterAll(() => backend?.close());
    /** A store of the host type `Thing` on the backend, and a new thing to write to it. */
    const thingStore = () => {
      const things = new PostgresResourceStore({
        executor: backend.executor,
        schema: backend.schema,
        resourceType: 'Thing',
      });
      const thing: ScimResource = {
        schemas: ['urn:example:Thing'],
        id: newId(),
        name: 'one',
        meta: meta('Thing'),
      };
      return { things, thing };
    };
    let cases = 0;
    // Each test reads only its own tenant's rows.
    const nextTenant = () => (tenant = `fold-${(cases += 1)}`);

    it('logs each event with the resource it carries, the one the write stores included, alone or with other writes', async () => {
      nextTenant();
      const carrying = (
        type: DirectoryEventType,
        resource: Readonly<Record<string, unknown>> & { readonly id: string },
        resourceType = 'User',
      ): DirectoryEvent => ({
        ...event(type, resource.id),
        data: { id: resource.id, resourceType, resource },
      });
      // Concurrent creates: the first alone, the others in one shared statement.
      const users = [makeUser(), makeUser(), makeUser()];
      await Promise.all(
        users.map((user) =>
          store.create(tenant, user, {
            events: [carrying('user.created', user), carrying('user.invited', user)],
          }),
        ),
      );
      // Replaces, alone and shared: the written user, and an equal copy of it that is not the
      // object written, sent as it is.
      const next = users.map((user, i) => ({
        ...user,
        active: true,
        displayName: `Next ${i}`,
        meta: meta('User', 'W/"2"'),
      }));
      await Promise.all(
        next.map((user) =>
          store.replace(tenant, user, {
            expectedVersion: 'W/"1"',
            events: [
              carrying('user.updated', user),
              carrying('user.reactivated', { ...user, displayName: 'a copy' }),
            ],
          }),
        ),
      );
      const { things, thing } = thingStore();
      const nextThing = { ...thing, name: 'two', meta: meta('Thing', 'W/"2"') };
      await things.create(tenant, thing, {
        uniqueKeys: {},
        events: [carrying('thing.created', thing, 'Thing')],
      });
      await things.replace(tenant, nextThing, {
        expectedVersion: 'W/"1"',
        uniqueKeys: {},
        events: [carrying('thing.updated', nextThing, 'Thing')],
      });

      const { events } = await store.events.list({ tenant, limit: 100 });
      const resources = (type: string) =>
        events.filter((e) => e.type === type).map((e) => e.data.resource);
      const sorted = (list: readonly unknown[]) =>
        [...list].sort((a, b) =>
          String((a as ScimResource).id).localeCompare((b as ScimResource).id),
        );
      expect(sorted(resources('user.created'))).toEqual(sorted(users));
      expect(sorted(resources('user.invited'))).toEqual(sorted(users));
      expect(sorted(resources('user.updated'))).toEqual(sorted(next));
      expect(sorted(resources('user.reactivated'))).toEqual(
        sorted(next.map((user) => ({ ...user, displayName: 'a copy' }))),
      );
      expect(resources('thing.created')).toEqual([thing]);
      expect(resources('thing.updated')).toEqual([nextThing]);
      for (const e of events)
        expect(Object.keys(e.data).sort()).toEqual(['id', 'resource', 'resourceType']);
    });

    it('a user write records its events, or none when it writes nothing', async () => {
      nextTenant();
      const user = makeUser();
      const created = [event('user.created', user.id), event('user.activated', user.id)];
      await store.create(tenant, user, { events: created });
      const next = { ...user, meta: meta('User', 'W/"2"') };
      const stale = { ...user, meta: meta('User', 'W/"3"') };
      await expect(
        store.replace(tenant, stale, {
          expectedVersion: 'W/"2"',
          events: [event('user.updated', user.id)],
        }),
      ).rejects.toMatchObject({ status: 412 });
      const ghost = makeUser();
      const missing = await store.replace(tenant, ghost, {
        expectedVersion: 'W/"1"',
        events: [event('user.updated', ghost.id)],
      });
      expect(missing).toBe(false);
      const updated = event('user.updated', user.id);
      await store.replace(tenant, next, { expectedVersion: 'W/"1"', events: [updated] });

      const rows = await logged();
      expect(rows.map((row) => row.id)).toEqual([...created, updated].map((e) => e.id));
      // One write, one transaction: its events share the xid, in the order given.
      expect(rows[0]?.xid).toBe(rows[1]?.xid);
      expect(rows[2]?.xid).not.toBe(rows[0]?.xid);
    });

    it('a user delete records its events only when it deletes, at any expected version', async () => {
      nextTenant();
      const user = makeUser();
      await store.create(tenant, user);
      await expect(
        store.delete(tenant, user.id, {
          expectedVersion: 'W/"9"',
          events: [event('user.deleted', user.id)],
        }),
      ).rejects.toMatchObject({ status: 412 });
      const deleted = event('user.deleted', user.id);
      expect(
        await store.delete(tenant, user.id, { expectedVersion: 'W/"1"', events: [deleted] }),
      ).toBe(true);
      expect(
        await store.delete(tenant, user.id, {
          expectedVersion: 'W/"1"',
          events: [event('user.deleted', user.id)],
        }),
      ).toBe(false);
      expect(await loggedIds()).toEqual([deleted.id]);
    });

    it('a group create without members and a group delete record their events', async () => {
      nextTenant();
      const group: ScimGroup = {
        schemas: [GROUP_SCHEMA],
        id: newId(),
        displayName: 'Fold',
        meta: meta('Group'),
      };
      const created = event('group.created', group.id);
      await store.groups.create(tenant, group, [], { events: () => [created] });
      await expect(
        store.groups.create(tenant, group, [], {
          events: () => [event('group.created', group.id)],
        }),
      ).rejects.toThrow();
      await expect(
        store.groups.delete(tenant, group.id, {
          expectedVersion: 'W/"9"',
          events: [event('group.deleted', group.id)],
        }),
      ).rejects.toMatchObject({ status: 412 });
      const deleted = event('group.deleted', group.id);
      expect(await store.groups.delete(tenant, group.id, { events: [deleted] })).toBe(true);
      expect(
        await store.groups.delete(tenant, group.id, { events: [event('group.deleted', group.id)] }),
      ).toBe(false);
      expect(await loggedIds()).toEqual([created.id, deleted.id]);
    });

    it('a group write with more events than one statement takes records them all, in order, in its transaction', async () => {
      nextTenant();
      const member = makeUser();
      await store.create(tenant, member);
      const group: ScimGroup = {
        schemas: [GROUP_SCHEMA],
        id: newId(),
        displayName: 'Many',
        meta: meta('Group'),
      };
      const many = (type: DirectoryEventType) =>
        Array.from({ length: 2 * EVENTS_PER_STATEMENT + 1 }, () => event(type, group.id));
      const created = many('group.member_added');
      await store.groups.create(tenant, group, [{ value: member.id }], { events: () => created });
      const renamed = { ...group, displayName: 'Many more', meta: meta('Group', 'W/"2"') };
      const replaced = many('group.member_removed');
      await store.groups.replace(tenant, renamed, {
        expectedVersion: 'W/"1"',
        members: [],
        events: () => replaced,
      });
      const rows = await logged();
      expect(rows.map((row) => row.id)).toEqual([...created, ...replaced].map((e) => e.id));
      const xids = (from: number, to: number) => new Set(rows.slice(from, to).map((r) => r.xid));
      expect(xids(0, created.length).size).toBe(1);
      expect(xids(created.length, rows.length).size).toBe(1);

      // An event the last statement cannot insert rolls back the whole write and its events.
      const broken = many('group.member_added');
      broken[broken.length - 1] = { ...event('group.member_added', group.id), occurredAt: 'never' };
      await expect(
        store.groups.replace(
          tenant,
          { ...renamed, meta: meta('Group', 'W/"3"') },
          {
            expectedVersion: 'W/"2"',
            members: [{ value: member.id }],
            events: () => broken,
          },
        ),
      ).rejects.toThrow();
      expect(await loggedIds()).toEqual(rows.map((row) => row.id));
      const after = await store.groups.get(tenant, group.id);
      expect(after?.meta.version).toBe('W/"2"');
      expect(after?.members ?? []).toEqual([]);
    });

    it('a host resource without unique keys records its events with each write', async () => {
      nextTenant();
      const { things, thing } = thingStore();
      const created = event('thing.created', thing.id);
      await things.create(tenant, thing, { uniqueKeys: {}, events: [created] });
      await expect(
        things.create(tenant, thing, {
          uniqueKeys: {},
          events: [event('thing.created', thing.id)],
        }),
      ).rejects.toMatchObject({ status: 409 });
      const next = { ...thing, meta: meta('Thing', 'W/"2"') };
      await expect(
        things.replace(tenant, next, {
          expectedVersion: 'W/"7"',
          uniqueKeys: {},
          events: [event('thing.updated', thing.id)],
        }),
      ).rejects.toMatchObject({ status: 412 });
      const updated = event('thing.updated', thing.id);
      await things.replace(tenant, next, {
        expectedVersion: 'W/"1"',
        uniqueKeys: {},
        events: [updated],
      });
      await expect(
        things.delete(tenant, thing.id, {
          expectedVersion: 'W/"1"',
          events: [event('thing.deleted', thing.id)],
        }),
      ).rejects.toMatchObject({ status: 412 });
      const deleted = event('thing.deleted', thing.id);
      expect(await things.delete(tenant, thing.id, { events: [deleted] })).toBe(true);
      expect(
        await things.delete(tenant, thing.id, { events: [event('thing.deleted', thing.id)] }),
      ).toBe(false);
      expect(await loggedIds()).toEqual([created.id, updated.id, deleted.id]);
    });
  });
}
