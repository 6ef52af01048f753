// Recipe: group membership gives platform roles ("Teachers of Lincoln High" → `teacher`).
// Built from the public host API only: `scim.users.get`, `scim.users.groups` and the lifecycle
// events. docs/groups.md ("Roles from groups") explains the choices. In your project, import
// from 'scimkit'.
import type { MemberGroup, Scim, ScimEvent } from '../../src/index.js';

/** The role a group gives its members, directly or through nested groups; none: `undefined`. */
export type RoleOfGroup = (group: MemberGroup) => string | undefined;

/** A user's roles: those the IdP set on the user, and those its groups give. */
export interface UserRoles {
  /** The `roles` values the IdP sent for the user, untouched, in its order. */
  readonly fromIdp: readonly string[];
  /** The roles the user's groups give, each once, in the order of the groups. */
  readonly fromGroups: readonly string[];
  /** Both, each once: what the platform checks. */
  readonly all: readonly string[];
}

/**
 * Maps a user's groups to roles. Group roles are computed, never written into the user's SCIM
 * `roles`: that attribute stays the IdP's (a PUT from the IdP replaces it whole, and roles it did
 * not send would be removed again on its next sync). Roles are read from the store on demand and
 * kept per tenant until a lifecycle event says they may have changed.
 *
 * Events come after the write is committed, so a read that starts after one sees the change; a
 * read that started before it and ends after it is answered but not kept (the tenant's
 * generation moved). Events are per process: with several instances, give each its own
 * listener through a broadcast, or pass `cache: false` and read at every check (two store reads).
 */
export function groupRoles(scim: Scim, roleOf: RoleOfGroup, options: { cache?: boolean } = {}) {
  const cache = options.cache ?? true;
  // Per tenant: the roles read, and a generation that moves on every change that may affect them.
  const tenants = new Map<string, { generation: number; users: Map<string, UserRoles> }>();
  const tenantOf = (tenant: string) => {
    let entry = tenants.get(tenant);
    if (!entry) tenants.set(tenant, (entry = { generation: 0, users: new Map() }));
    return entry;
  };
  const forget = (tenant: string, userId?: string) => {
    const entry = tenantOf(tenant);
    entry.generation++;
    if (userId === undefined) entry.users.clear();
    else entry.users.delete(userId);
  };
  const stop = scim.on((event: ScimEvent) => {
    switch (event.type) {
      case 'group.member_added':
      case 'group.member_removed':
        // A nested group moved: every user below it may have gained or lost roles.
        forget(event.tenant, event.member.type === 'User' ? event.member.value : undefined);
        break;
      case 'group.updated': // a rename may change the role a name maps to
      case 'group.deleted': // its members are no longer known: forget the tenant's roles
        forget(event.tenant);
        break;
      case 'user.updated': // the IdP's own `roles` may have changed
        forget(event.tenant, event.after.id);
        break;
      case 'user.deleted':
        forget(event.tenant, event.id);
        break;
    }
  });

  async function read(tenant: string, userId: string): Promise<UserRoles | null> {
    const [user, groups] = await Promise.all([
      scim.users.get(tenant, userId),
      scim.users.groups(tenant, userId),
    ]);
    if (!user || !groups) return null;
    const fromIdp = (user.roles ?? []).flatMap((r) =>
      typeof r.value === 'string' ? [r.value] : [],
    );
    const fromGroups = [...new Set(groups.flatMap((g) => roleOf(g) ?? []))];
    return { fromIdp, fromGroups, all: [...new Set([...fromIdp, ...fromGroups])] };
  }

  return {
    /** The user's roles now; `null` for a user the tenant does not have. */
    async rolesOf(tenant: string, userId: string): Promise<UserRoles | null> {
      if (!cache) return read(tenant, userId);
      const entry = tenantOf(tenant);
      const kept = entry.users.get(userId);
      if (kept) return kept;
      const generation = entry.generation;
      const roles = await read(tenant, userId);
      if (roles && entry.generation === generation) entry.users.set(userId, roles);
      return roles;
    },
    /** Stops listening to the service's events. */
    stop,
  };
}

/** The mapping of the example: "Teachers of <school>" gives `teacher`, "Principals" `principal`. */
export const lincolnRoles: RoleOfGroup = (group) => {
  if (/^teachers of /i.test(group.display)) return 'teacher';
  if (group.display === 'Principals') return 'principal';
  return undefined;
};
