import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';
import { event, eventCase, idsOf, readAll } from './events.js';
import { groupCase } from './groups-factory.js';

/** A write with many events: a store may keep them compactly, the feed lists each. */
export const eventLargeWriteCases: readonly StoreConformanceCase[] = [
  eventCase(
    'events.many-member-events',
    "a large membership write's events are listed one by one, resumable from any of them",
    async (ctx) => {
      const { groups, group, createUsers } = groupCase(ctx);
      const { log, tenant } = ctx;
      // A store may keep such a run compactly; the feed still shows each event on its own.
      const members = await createUsers(120);
      const g = group();
      const written: string[] = [];
      const expected: unknown[] = [];
      await groups.create(
        tenant,
        g,
        members.map((id) => ({ value: id as string })),
        {
          events: (change) => {
            const created = event(ctx, 'group.created', g.id);
            const added = change.added.map((m, i) => ({
              ...event(ctx, 'group.member_added', g.id),
              data: {
                id: g.id,
                resourceType: 'Group',
                groupId: g.id,
                userId: m.value,
                ...(i % 2 === 0 ? { memberType: 'User' } : {}),
              },
            }));
            written.push(created.id, ...added.map((e) => e.id));
            expected.push(...added.map((e) => [g.id, e.data.userId, e.data.memberType]));
            return [created, ...added];
          },
        },
      );
      const all = await readAll(log, tenant, undefined, 7, written.length);
      check.deepEqual(idsOf(all), written, 'events listed, 7 a page');
      check.deepEqual(
        all.slice(1).map((e) => [e.data.groupId, e.data.userId, e.data.memberType]),
        expected,
        'each member event carries its own member',
      );
      check.equal(new Set(all.map((e) => e.cursor)).size, all.length, 'a cursor per event');
      for (const i of [0, 1, 59, 60, 119]) {
        const after = all[i]?.cursor as string;
        const rest = await readAll(log, tenant, after, 50, written.length - i - 1);
        check.deepEqual(idsOf(rest), written.slice(i + 1), `after event ${i + 1}`);
      }
    },
  ),
];
