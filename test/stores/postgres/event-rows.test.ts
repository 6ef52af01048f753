// A write's run of member events of one group is stored several to a row (EVENTS_PER_ROW), and
// so are a write's events of one resource (a create's `user.created` and `user.invited`); the
// feed shows them one by one as if each had a row of its own: the same events, in order, a
// cursor each that resumes exactly after it, any page size, type and tenant filters, purge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DirectoryEvent,
  DirectoryEventType,
  LoggedEvent,
} from '../../../src/contracts/event-log.js';
import { newId } from '../../../src/core/resources/new-id.js';
import type { ScimGroup } from '../../../src/schema/group-schema.js';
import type { ScimUser } from '../../../src/schema/user-resource.js';
import { GROUP_SCHEMA } from '../../../src/schema/urns.js';
import { EVENTS_PER_ROW } from '../../../src/stores/postgres/event-statements.js';
import type { PostgresUserStore } from '../../../src/stores/postgres/index.js';
import { backends, makeUser, type Backend } from './harness.js';

const STAMP = '2025-01-01T00:00:00.000Z';
// More than two rows' worth, and not a multiple of a row.
const MEMBERS = 2 * EVENTS_PER_ROW + 345;

for (const { name, open } of backends) {
  describe(`member events stored several to a row (${name})`, { timeout: 60_000 }, () => {
    let backend: Backend;
    let store: PostgresUserStore;
    let cases = 0;

    beforeAll(async () => {
      backend = await open();
      store = backend.newStore();
      await store.migrate();
    }, 60_000);
    afterAll(() => backend?.close());

    // A group created in a tenant of its own with `MEMBERS` member events (every third
    // without a memberType), then renamed: the events as the write was handed them.
    async function seed(): Promise<{ tenant: string; written: DirectoryEvent[] }> {
      const tenant = `rows-${(cases += 1)}`;
      const group: ScimGroup = {
        schemas: [GROUP_SCHEMA],
        id: newId(),
        displayName: 'Class 4B',
        meta: { resourceType: 'Group', created: STAMP, lastModified: STAMP, version: 'W/"1"' },
      };
      const base = { id: newId(), tenant, occurredAt: STAMP };
      const created: DirectoryEvent = {
        ...base,
        type: 'group.created',
        data: { id: group.id, resourceType: 'Group', resource: group },
      };
      const member = (type: DirectoryEventType, i: number): DirectoryEvent => ({
        id: newId(),
        type,
        tenant,
        occurredAt: STAMP,
        data: {
          id: group.id,
          resourceType: 'Group',
          groupId: group.id,
          userId: `user-${i}`,
          ...(i % 3 === 0 ? {} : { memberType: 'User' }),
        },
      });
      const added = Array.from({ length: MEMBERS }, (_, i) => member('group.member_added', i));
      const removed = [member('group.member_removed', 1), member('group.member_removed', 2)];
      const written = [created, ...added, ...removed];
      await store.groups.create(tenant, group, [], { events: () => written });
      return { tenant, written };
    }

    // Reads every event of `tenant` after `after`, `limit` a page, until at least `expected`
    // are read: on a shared server, another client's open transaction holds the feed back
    // (docs/events.md), so an empty page before then is read again, for up to 20 s.
    async function readAll(
      tenant: string,
      limit: number,
      options: { after?: string; types?: string[]; expected?: number } = {},
    ): Promise<LoggedEvent[]> {
      const out: LoggedEvent[] = [];
      let after = options.after;
      const until = Date.now() + 20_000;
      for (let i = 0; i < 10_000; i++) {
        const page = await store.events.list({
          tenant,
          limit,
          ...(after === undefined ? {} : { after }),
          ...(options.types ? { types: options.types } : {}),
        });
        expect(page.events.length).toBeLessThanOrEqual(limit);
        out.push(...page.events);
        if (page.events.length === 0) {
          if (out.length >= (options.expected ?? 0) || Date.now() > until) return out;
          await new Promise((resolve) => setTimeout(resolve, 25));
          continue;
        }
        after = page.next;
      }
      throw new Error('the feed never ended');
    }

    const withoutCursor = (events: readonly LoggedEvent[]) =>
      events.map(({ cursor: _cursor, ...event }) => event);

    it('lists the events as written, one by one, at any page size, each cursor unique', async () => {
      const { tenant, written } = await seed();
      for (const limit of [1_000_000, EVENTS_PER_ROW, 7]) {
        const read = await readAll(tenant, limit, { expected: written.length });
        expect(withoutCursor(read)).toEqual(written);
        expect(new Set(read.map((e) => e.cursor)).size).toBe(written.length);
      }
      // Stored compactly: the group's own event, three rows of member_added, one of removed.
      const rows = await backend.executor.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${backend.tables.events} WHERE tenant = $1`,
        [tenant],
      );
      expect(rows[0]?.n).toBe(5);
    });

    it('resumes after any cursor with exactly the events that follow it', async () => {
      const { tenant, written } = await seed();
      const read = await readAll(tenant, 500, { expected: written.length });
      // Inside a row, at its edges, and the last event of all.
      const at = [0, 1, 2, 998, 999, 1000, 1001, 1999, 2000, 2344, 2345, 2346, 2347];
      for (const i of at) {
        const after = (read[i] as LoggedEvent).cursor;
        const rest = await readAll(tenant, 333, { after, expected: written.length - i - 1 });
        expect(withoutCursor(rest)).toEqual(written.slice(i + 1));
      }
    });

    it('filters by type and by tenant through rows of several events', async () => {
      const { tenant, written } = await seed();
      const other = await seed();
      const removed = await readAll(tenant, 3, { types: ['group.member_removed'], expected: 2 });
      expect(withoutCursor(removed)).toEqual(
        written.filter((e) => e.type === 'group.member_removed'),
      );
      const added = await readAll(other.tenant, 600, {
        types: ['group.member_added'],
        expected: MEMBERS,
      });
      expect(added.map((e) => e.id)).toEqual(
        other.written.filter((e) => e.type === 'group.member_added').map((e) => e.id),
      );
    });

    // Writes of users in a tenant of their own, as a service records them: creates of active
    // users (`user.created`, `user.invited`), PATCHes of `active` (`user.updated` with its
    // changed attributes, then `user.deactivated` or `user.reactivated`), a rename (one event).
    async function seedWrites(): Promise<{ tenant: string; written: DirectoryEvent[] }> {
      const tenant = `writes-${(cases += 1)}`;
      const written: DirectoryEvent[] = [];
      const userEvent = (
        type: DirectoryEventType,
        user: ScimUser,
        more: Partial<DirectoryEvent['data']> = {},
      ): DirectoryEvent => ({
        id: newId(),
        type,
        tenant,
        occurredAt: user.meta.lastModified,
        data: { id: user.id, resourceType: 'User', resource: user, ...more },
      });
      for (let i = 0; i < 4; i++) {
        const user = makeUser({ active: true });
        const created = [userEvent('user.created', user), userEvent('user.invited', user)];
        await store.create(tenant, user, { events: created });
        written.push(...created);
        let current = user;
        for (const [v, active] of [false, true].entries()) {
          const next = {
            ...current,
            active,
            meta: { ...current.meta, version: `W/"${v + 2}"` },
          };
          const events = [
            userEvent('user.updated', next, { changed: ['active'] }),
            userEvent(active ? 'user.reactivated' : 'user.deactivated', next),
          ];
          await store.replace(tenant, next, { expectedVersion: current.meta.version, events });
          written.push(...events);
          current = next;
        }
        const renamed = {
          ...current,
          displayName: `User ${i}`,
          meta: { ...current.meta, version: 'W/"4"' },
        };
        const events = [userEvent('user.updated', renamed, { changed: ['displayName'] })];
        await store.replace(tenant, renamed, { expectedVersion: current.meta.version, events });
        written.push(...events);
      }
      return { tenant, written };
    }

    it("stores a write's events of one resource in one row, and lists them one by one at any page size", async () => {
      const { tenant, written } = await seedWrites();
      for (const limit of [1, 2, 3, 1_000]) {
        const read = await readAll(tenant, limit, { expected: written.length });
        expect(withoutCursor(read)).toEqual(written);
        expect(new Set(read.map((e) => e.cursor)).size).toBe(written.length);
        // Every cursor resumes with exactly the events after it.
        if (limit === 3)
          for (const [i, event] of read.entries()) {
            const rest = await readAll(tenant, 2, {
              after: event.cursor,
              expected: written.length - i - 1,
            });
            expect(withoutCursor(rest)).toEqual(written.slice(i + 1));
          }
      }
      // One row a write: a create, two PATCHes and a rename for each user.
      const rows = await backend.executor.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${backend.tables.events} WHERE tenant = $1`,
        [tenant],
      );
      expect(rows[0]?.n).toBe(4 * 4);
    });

    it('filters by type inside the rows of a write, at any page size, skipping none', async () => {
      const { tenant, written } = await seedWrites();
      const asked: readonly (readonly DirectoryEventType[])[] = [
        ['user.deactivated'],
        ['user.invited', 'user.reactivated'],
        ['user.updated'],
      ];
      for (const types of asked)
        for (const limit of [1, 2, 5, 1_000]) {
          const expected = written.filter((e) => types.includes(e.type));
          const read = await readAll(tenant, limit, {
            types: [...types],
            expected: expected.length,
          });
          expect(withoutCursor(read)).toEqual(expected);
          // Every page is full but the last: a reader that gets fewer than it asked for has
          // caught up.
          const sizes: number[] = [];
          let after: string | undefined;
          for (;;) {
            const page = await store.events.list({
              tenant,
              limit,
              types: [...types],
              ...(after === undefined ? {} : { after }),
            });
            if (page.events.length === 0) break;
            sizes.push(page.events.length);
            after = page.next;
          }
          const full = Math.floor(expected.length / limit);
          const rest = expected.length % limit;
          expect(sizes).toEqual([...Array<number>(full).fill(limit), ...(rest > 0 ? [rest] : [])]);
          // A reader of some types resumes past the others: nothing new after the last page.
          const last = read[read.length - 1] as LoggedEvent;
          const beyond = await store.events.list({
            tenant,
            limit,
            after: last.cursor,
            types: [...types],
          });
          expect(beyond.events).toEqual([]);
        }
    });

    it('refuses a cursor inside a row that no read gave', async () => {
      const { tenant, written } = await seed();
      const first = (await readAll(tenant, 1_000, { expected: written.length }))[1];
      const row = (first as LoggedEvent).cursor.split('.').slice(0, 2).join('.');
      for (const cursor of [`${row}.0`, `${row}.${EVENTS_PER_ROW.toString(36)}`, `${row}.x.y`])
        await expect(store.events.list({ tenant, limit: 5, after: cursor })).rejects.toMatchObject({
          status: 400,
          scimType: 'invalidCursor',
        });
    });

    it('purges in bounded steps and counts events, not rows', async () => {
      const { tenant, written } = await seed();
      const before = new Date('2025-06-01T00:00:00.000Z');
      const ours = async () => (await readAll(tenant, 10_000)).length;
      await readAll(tenant, 10_000, { expected: written.length });
      // Other cases' events are as old: purge until these are gone, each step bounded.
      let steps = 0;
      while ((await ours()) > 0 && steps < 1_000) {
        const purged = await store.events.purge(before, 700);
        expect(purged).toBeGreaterThanOrEqual(1);
        expect(purged).toBeLessThan(700 + EVENTS_PER_ROW);
        steps += 1;
      }
      expect(await ours()).toBe(0);
      expect(steps).toBeGreaterThanOrEqual(Math.ceil(written.length / (700 + EVENTS_PER_ROW)));
      expect(await store.events.purge(before, 700)).toBe(0);
    });
  });
}
