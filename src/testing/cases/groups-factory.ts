import type { GroupStore } from '../../contracts/group-store.js';
import { nextVersion } from '../../schema/version.js';
import type { ScimGroup } from '../../schema/group-schema.js';
import type { StoreTestContext } from '../types.js';
import { GROUP_SCHEMA } from '../../schema/urns.js';

/** Ids of created users; the first three are typed as present for destructuring. */
export interface UserIds extends Array<string> {
  0: string;
  1: string;
  2: string;
}

/** What the group cases work with: the store's groups and a maker of groups and users. */
export interface GroupCaseContext {
  readonly groups: GroupStore;
  /** Returns a new valid group (no members) with a time-ordered id. */
  group(overrides?: Partial<ScimGroup>): ScimGroup;
  /** Returns `group` with a changed attribute set and its version increased by one. */
  next(group: ScimGroup, changes?: Partial<ScimGroup>): ScimGroup;
  /** Creates `n` users in the tenant (or `tenant`) and returns their ids in order. */
  createUsers(n: number, tenant?: string): Promise<UserIds>;
}

/**
 * Opens the group side of a case: skips it when the store keeps no groups.
 *
 * @internal
 */
export function groupCase(ctx: StoreTestContext): GroupCaseContext {
  const groups = ctx.store.groups;
  if (!groups) return ctx.skip('the store has no groups');
  const prefix = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  const created = new Date().toISOString();
  let counter = 0;
  return {
    groups,
    group(overrides = {}) {
      counter += 1;
      const n = String(counter).padStart(8, '0');
      return {
        schemas: [GROUP_SCHEMA],
        id: `${prefix}g${n}`,
        displayName: `Class ${n}`,
        meta: { resourceType: 'Group', created, lastModified: created, version: 'W/"1"' },
        ...overrides,
      };
    },
    next(group, changes = {}) {
      const meta = {
        ...group.meta,
        lastModified: new Date().toISOString(),
        version: nextVersion(group.meta.version),
      };
      return { ...group, ...changes, meta };
    },
    async createUsers(n, tenant = ctx.tenant) {
      const made = Array.from({ length: n }, () => ctx.users.make());
      // In batches: a store on a server takes one round trip per create.
      for (let i = 0; i < n; i += 50) {
        await Promise.all(made.slice(i, i + 50).map((user) => ctx.store.create(tenant, user)));
      }
      return made.map((user) => user.id) as UserIds;
    },
  };
}

/** The ids of a group's members as `get` returns them. */
export function memberIds(group: ScimGroup | null): string[] {
  return (group?.members ?? []).map((m) => m.value);
}

/** Sorts ids as the stores order them (code unit order). */
export const sortedIds = (ids: readonly string[]): string[] =>
  [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
