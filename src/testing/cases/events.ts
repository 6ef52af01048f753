import type { DirectoryEvent, EventLog, LoggedEvent } from '../../contracts/event-log.js';
import type { GroupMember } from '../../schema/group-schema.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { groupCase } from './groups-factory.js';

/**
 * The store's event log; the case is skipped for a store without one.
 *
 * @internal
 */
export function logOf(ctx: StoreTestContext): EventLog {
  return ctx.store.events ?? ctx.skip('the store keeps no event log (no `events`)');
}

/**
 * What an event-log case runs with: the case's context and the store's log.
 *
 * @internal
 */
export type EventCaseContext = StoreTestContext & { readonly log: EventLog };

/**
 * An event-log case: skipped for a store without a log, else run with the log in its context.
 *
 * @internal
 */
export function eventCase(
  id: string,
  title: string,
  run: (ctx: EventCaseContext) => Promise<void>,
): StoreConformanceCase {
  return { id, title, run: (ctx) => run({ ...ctx, log: logOf(ctx) }) };
}

/**
 * A directory event of the case's tenant, with a unique id.
 *
 * @internal
 */
export function event(
  ctx: StoreTestContext,
  type: DirectoryEvent['type'],
  id: string,
  occurredAt = new Date().toISOString(),
): DirectoryEvent {
  return {
    id: `evt-${crypto.randomUUID()}`,
    type,
    tenant: ctx.tenant,
    occurredAt,
    data: { id, resourceType: type.startsWith('group.') ? 'Group' : 'User' },
  };
}

/**
 * Every event of the tenant after `after`, page by page (pages of `limit`), once at least
 * `expected` are there: a log may hold back events while another transaction of its database
 * is open (see docs/events.md), so the read waits for them, 5 s at most.
 *
 * @internal
 */
export async function readAll(
  log: EventLog,
  tenant: string,
  after?: string,
  limit = 2,
  expected = 0,
): Promise<LoggedEvent[]> {
  const all: LoggedEvent[] = [];
  let cursor = after;
  for (let i = 0; i < 500; i++) {
    const page = await log.list({
      tenant,
      limit,
      ...(cursor === undefined ? {} : { after: cursor }),
    });
    all.push(...page.events);
    if (page.events.length === 0) {
      if (all.length >= expected || i >= 200) return all;
      await new Promise((resolve) => setTimeout(resolve, 25));
      continue;
    }
    check.ok(page.next !== undefined, 'a page with events has a `next` cursor');
    cursor = page.next;
  }
  throw new Error('the log did not end after 500 pages');
}

// What a logged event says, without its cursor.
const plain = ({ cursor: _cursor, ...event }: LoggedEvent) => event;
/**
 * The ids of `events`, in order.
 *
 * @internal
 */
export const idsOf = (events: readonly { id: string }[]) => events.map((e) => e.id);

/** The directory event log: written with each write, none for a refused one, read by cursor. */
export const eventLogCases: readonly StoreConformanceCase[] = [
  eventCase(
    'events.recorded-with-writes',
    'the events given to create, replace and delete are listed, every field kept, in order',
    async (ctx) => {
      const { log, store, tenant, users } = ctx;
      const user = users.make();
      const created = {
        ...event(ctx, 'user.created', user.id),
        data: { id: user.id, resourceType: 'User', resource: user },
      };
      await store.create(tenant, user, { events: [created] });
      const next = users.next(user, { displayName: 'Ada' });
      const updated = {
        ...event(ctx, 'user.updated', user.id),
        data: { id: user.id, resourceType: 'User', changed: ['displayName'] },
      };
      const deactivated = event(ctx, 'user.deactivated', user.id);
      await store.replace(tenant, next, {
        expectedVersion: user.meta.version,
        events: [updated, deactivated],
      });
      const deleted = event(ctx, 'user.deleted', user.id);
      await store.delete(tenant, user.id, { events: [deleted] });
      const listed = await readAll(log, tenant, undefined, 2, 4);
      check.deepEqual(listed.map(plain), [created, updated, deactivated, deleted], 'events listed');
      for (const e of listed)
        check.ok(typeof e.cursor === 'string' && e.cursor !== '', `event ${e.id} has a cursor`);
    },
  ),
  eventCase(
    'events.none-for-refused-writes',
    'a write that is refused or finds nothing records none of its events',
    async (ctx) => {
      const { log, store, tenant, users } = ctx;
      const user = users.make();
      await store.create(tenant, user);
      const twin = users.make({ userName: user.userName });
      await check.rejects(
        store.create(tenant, twin, { events: [event(ctx, 'user.created', twin.id)] }),
        409,
        'uniqueness',
        'create with a taken userName',
      );
      const stale = users.next(users.next(user));
      await check.rejects(
        store.replace(tenant, stale, {
          expectedVersion: stale.meta.version,
          events: [event(ctx, 'user.updated', user.id)],
        }),
        412,
        undefined,
        'replace at a stale version',
      );
      const ghost = users.make();
      const replaced = await store.replace(tenant, ghost, {
        expectedVersion: ghost.meta.version,
        events: [event(ctx, 'user.updated', ghost.id)],
      });
      check.equal(replaced, false, 'replace of a user that is not there');
      const deleted = await store.delete(tenant, ghost.id, {
        events: [event(ctx, 'user.deleted', ghost.id)],
      });
      check.equal(deleted, false, 'delete of a user that is not there');
      await check.rejects(
        store.delete(tenant, user.id, {
          expectedVersion: 'W/"99"',
          events: [event(ctx, 'user.deleted', user.id)],
        }),
        412,
        undefined,
        'delete at a stale version',
      );
      // A write that succeeds afterwards: once its event is listed, nothing else is.
      const after = users.make();
      const marker = event(ctx, 'user.created', after.id);
      await store.create(tenant, after, { events: [marker] });
      const listed = await readAll(log, tenant, undefined, 2, 1);
      check.deepEqual(idsOf(listed), [marker.id], 'events listed');
    },
  ),
  eventCase(
    'events.membership-changes',
    "a group write's events come from what it changed, listed only when it commits",
    async (ctx) => {
      const { groups, group, createUsers } = groupCase(ctx);
      const { log, tenant } = ctx;
      const [a, b, c] = await createUsers(3);
      const seen: string[] = [];
      const events =
        (type: 'group.member_added' | 'group.member_removed', gid: string) =>
        (change: { added: readonly GroupMember[]; removed: readonly GroupMember[] }) => {
          const members = type === 'group.member_added' ? change.added : change.removed;
          seen.push(`${type}:${members.map((m) => m.value).join(',')}`);
          return members.map((m) => ({
            ...event(ctx, type, gid),
            data: { id: gid, resourceType: 'Group', groupId: gid, userId: m.value },
          }));
        };
      const g = group();
      await groups.create(tenant, g, [{ value: a as string }], {
        events: events('group.member_added', g.id),
      });
      // `a` is a member already: only `b` is added, and only `b`'s event is written.
      await groups.addMembers(tenant, g.id, [{ value: a as string }, { value: b as string }], {
        events: events('group.member_added', g.id),
      });
      await groups.removeMembers(tenant, g.id, [c as string, a as string], {
        events: events('group.member_removed', g.id),
      });
      // An unknown member: the write is refused, nothing recorded.
      await check.rejects(
        groups.addMembers(tenant, g.id, [{ value: c as string }, { value: 'no-such-member' }], {
          events: events('group.member_added', g.id),
        }),
        400,
        'invalidValue',
        'addMembers with an unknown member',
      );
      const listed = await readAll(log, tenant, undefined, 2, 3);
      check.deepEqual(
        listed.map((e) => `${e.type}:${e.data.userId ?? ''}`),
        [`group.member_added:${a}`, `group.member_added:${b}`, `group.member_removed:${a}`],
        'member events listed',
      );
      check.deepEqual(
        seen.slice(0, 3),
        [`group.member_added:${a}`, `group.member_added:${b}`, `group.member_removed:${a}`],
        'what the store handed the events function',
      );
    },
  ),
  eventCase(
    'events.resume-from-any-cursor',
    'resuming from any cursor lists every later event once, in order; a foreign cursor is 400',
    async (ctx) => {
      const { log, store, tenant, users } = ctx;
      for (let i = 0; i < 5; i++) {
        const user = users.make();
        await store.create(tenant, user, {
          events: [event(ctx, 'user.created', user.id), event(ctx, 'user.activated', user.id)],
        });
      }
      const all = await readAll(log, tenant, undefined, 100, 10);
      check.equal(all.length, 10, 'events listed');
      for (const [i, e] of all.entries()) {
        const rest = await readAll(log, tenant, e.cursor, 3, all.length - i - 1);
        check.deepEqual(idsOf(rest), idsOf(all.slice(i + 1)), `after event ${i + 1}`);
      }
      const empty = await log.list({ tenant, limit: 5, after: all[9]?.cursor as string });
      check.equal(empty.next, all[9]?.cursor, '`next` of an empty page is the cursor given');
      await check.rejects(
        log.list({ tenant, limit: 5, after: '%% not a cursor %%' }),
        400,
        'invalidCursor',
        'a cursor the log did not make',
      );
    },
  ),
  eventCase(
    'events.tenant-and-type-filters',
    "a tenant's page holds only its events, and only the types asked for",
    async (ctx) => {
      const { log, store, tenant, otherTenant, users } = ctx;
      const mine = users.make();
      await store.create(tenant, mine, {
        events: [event(ctx, 'user.created', mine.id), event(ctx, 'user.deactivated', mine.id)],
      });
      const theirs = users.make();
      await store.create(otherTenant, theirs, {
        events: [{ ...event(ctx, 'user.created', theirs.id), tenant: otherTenant }],
      });
      // Both of this tenant's events are listed before the filter is tried.
      await readAll(log, tenant, undefined, 10, 2);
      const page = await log.list({ tenant, limit: 10, types: ['user.deactivated'] });
      check.deepEqual(
        page.events.map((e) => e.type),
        ['user.deactivated'],
        'types filter',
      );
      // `next` may pass events of other types, never a later one of the types asked for.
      const later = users.make();
      await store.create(tenant, later, {
        events: [event(ctx, 'user.created', later.id), event(ctx, 'user.deactivated', later.id)],
      });
      // A server's log shows the write once older transactions (another test's) have ended.
      let resumed = { events: [] as readonly LoggedEvent[] };
      for (let i = 0; i < 200 && resumed.events.length === 0; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 25));
        resumed = await log.list({
          tenant,
          limit: 10,
          types: ['user.deactivated'],
          ...(page.next === undefined ? {} : { after: page.next }),
        });
      }
      check.deepEqual(
        resumed.events.map((e) => `${e.type}:${e.data.id}`),
        [`user.deactivated:${later.id}`],
        'the next event of the types asked for, after `next` of a filtered page',
      );
      const other = await readAll(log, otherTenant, undefined, 2, 1);
      check.deepEqual(
        other.map((e) => e.data.id),
        [theirs.id],
        "the other tenant's events",
      );
    },
  ),
  eventCase(
    'events.purge-oldest-in-batches',
    'purge deletes at most `limit` events older than `before`, oldest first, and counts them',
    async (ctx) => {
      const { log, store, tenant, users } = ctx;
      const old = '1999-01-01T00:00:00.000Z';
      for (let i = 0; i < 3; i++) {
        const user = users.make();
        await store.create(tenant, user, { events: [event(ctx, 'user.created', user.id, old)] });
      }
      const recent = users.make();
      await store.create(tenant, recent, { events: [event(ctx, 'user.created', recent.id)] });
      await readAll(log, tenant, undefined, 10, 4);
      const before = new Date('1999-01-02T00:00:00.000Z');
      check.equal(await log.purge(before, 2), 2, 'a purge of at most 2');
      check.equal(await log.purge(before, 10), 1, 'the next purge');
      check.equal(await log.purge(before, 10), 0, 'nothing older is left');
      check.deepEqual(idsOf(await readAll(log, tenant)).length, 1, 'events left');
      check.equal((await readAll(log, tenant))[0]?.data.id, recent.id, 'the recent event is kept');
    },
  ),
];
