import type { GroupStore } from '../../contracts/group-store.js';
import type { GroupAccess } from '../scim.js';
import type { GroupService } from './group-service.js';

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
    addMembers: (tenant, id, members) => service.addMembers(tenant, id, members),
    removeMembers: (tenant, id, memberIds) => service.removeMembers(tenant, id, memberIds),
  };
}
