import type { GroupStore } from '../../contracts/group-store.js';
import { DeltaPlan } from '../../patch/delta-plan.js';
import type { GroupService } from '../resources/kinds/group.js';
import type { GroupAccess } from '../scim.js';
import type { GroupWritten } from './group-write.js';

/** How many members the host's walk reads per store call, by default. */
const DEFAULT_PAGE = 500;

/** Builds the host's group API (`scim.groups`) over the group service and the store's reads. */
export function groupAccess(service: GroupService, store: GroupStore): GroupAccess {
  return {
    get: (tenant, id) => store.get(tenant, id, { members: false }),
    async *members(tenant, id, pageSize = DEFAULT_PAGE) {
      const count = Math.max(1, Math.floor(pageSize));
      let after: string | undefined;
      for (;;) {
        const page = await store.members(
          tenant,
          id,
          after === undefined ? { count } : { after, count },
        );
        if (!page || page.length === 0) return;
        yield* page;
        if (page.length < count) return;
        after = page[page.length - 1]?.value;
      }
    },
    of: (tenant, memberId) => store.groupsOf(tenant, memberId),
    addMembers: async (tenant, id, members) =>
      (await changeMembers(service, tenant, id, (plan) => plan.add(members)))?.added ?? [],
    removeMembers: async (tenant, id, memberIds) =>
      (await changeMembers(service, tenant, id, (plan) => plan.remove(memberIds)))?.removed ?? [],
  };
}

// A membership-only write of the host API, through the one write loop (404, events).
async function changeMembers(
  service: GroupService,
  tenant: string,
  id: string,
  change: (plan: DeltaPlan) => void,
): Promise<GroupWritten | null> {
  const plan = new DeltaPlan();
  change(plan);
  const written = await service.update(tenant, id, undefined, async (_group, now) => ({
    group: null,
    members: plan,
    at: now,
  }));
  return written.done;
}
