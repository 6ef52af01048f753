import type { DirectoryEvent } from '../../contracts/event-log.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { event, eventCase, readAll } from './events.js';
import { groupCase, sortedIds } from './groups-factory.js';

/**
 * A `membershipEvents` option that lists one `group.member_removed` of `memberId` per group it
 * is called with, and keeps what it was called with in `calls`.
 */
function removals(ctx: StoreTestContext, memberId: string, calls: string[][]) {
  return (groupIds: readonly string[]): DirectoryEvent[] => {
    calls.push([...groupIds]);
    return groupIds.map((groupId) => ({
      ...event(ctx, 'group.member_removed', groupId),
      data: { id: groupId, resourceType: 'Group', groupId, userId: memberId },
    }));
  };
}

/** A delete's membership events: from the groups the store found the member in, or none. */
export const eventDeleteCases: readonly StoreConformanceCase[] = [
  eventCase(
    'events.member-removed-on-delete',
    "a user's or group's delete records the events of the memberships it removed, after its own",
    async (ctx) => {
      const { groups, group, createUsers } = groupCase(ctx);
      const { log, store, tenant } = ctx;
      const [a, b] = await createUsers(2);
      const [g1, g2, g3, parent] = [group(), group(), group(), group()];
      await groups.create(tenant, g1, [{ value: a }, { value: b }]);
      await groups.create(tenant, g2, [{ value: a }]);
      await groups.create(tenant, g3, [{ value: b }]);
      await groups.create(tenant, parent, [{ value: g3.id }]);
      const calls: string[][] = [];
      const userDeleted = event(ctx, 'user.deleted', a);
      check.equal(
        await store.delete(tenant, a, {
          events: [userDeleted],
          membershipEvents: removals(ctx, a, calls),
        }),
        true,
        'delete of a user in two groups',
      );
      check.deepEqual(calls, [sortedIds([g1.id, g2.id])], 'the groups handed to membershipEvents');
      // A delete that finds nothing calls it not at all.
      const none = await store.delete(tenant, a, { membershipEvents: removals(ctx, a, calls) });
      check.equal(none, false, 'a second delete of the user');
      check.equal(calls.length, 1, 'membershipEvents calls after a delete that found nothing');
      const groupDeleted = event(ctx, 'group.deleted', g3.id);
      await groups.delete(tenant, g3.id, {
        events: [groupDeleted],
        membershipEvents: removals(ctx, g3.id, calls),
      });
      check.deepEqual(calls[1], [parent.id], 'the groups a deleted group was a member of');
      const listed = await readAll(log, tenant, undefined, 10, 5);
      check.deepEqual(
        listed.map((e) => `${e.type}:${e.data.groupId ?? e.data.id}`),
        [
          `user.deleted:${a}`,
          ...sortedIds([g1.id, g2.id]).map((id) => `group.member_removed:${id}`),
          `group.deleted:${g3.id}`,
          `group.member_removed:${parent.id}`,
        ],
        'events listed',
      );
      check.deepEqual(
        (await groups.get(tenant, g1.id))?.members?.map((m) => m.value),
        [b],
        "the first group's members after the delete",
      );
    },
  ),
];
