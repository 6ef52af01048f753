import type { GroupMember, ScimGroup } from '../../schema/group-schema.js';
import { TenantTable } from './tenant-table.js';

/**
 * Holds one tenant's groups (the table keeps each without its members, deeply frozen) and the
 * membership indexes both ways, so that a one-member change, a group read without members and
 * a member's groups never visit a whole member list.
 *
 * @internal
 */
export class TenantGroups extends TenantTable<ScimGroup> {
  /** group id → member id → the frozen membership. */
  readonly membersOf = new Map<string, Map<string, GroupMember>>();
  /** member id → the ids of the groups it is directly in. */
  readonly groupsOf = new Map<string, Set<string>>();
  // group id → its members sorted by id, frozen; built on a full read, dropped on a change.
  readonly #sorted = new Map<string, readonly GroupMember[]>();

  /** Returns a group's members in ascending id order, frozen (built once per change). */
  sortedMembers(groupId: string): readonly GroupMember[] {
    let sorted = this.#sorted.get(groupId);
    if (sorted) return sorted;
    const members = [...(this.membersOf.get(groupId)?.values() ?? [])];
    members.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    sorted = Object.freeze(members);
    this.#sorted.set(groupId, sorted);
    return sorted;
  }

  /** Removes a stored group and its own memberships (not those it is part of). */
  override remove(group: ScimGroup): void {
    for (const member of [...(this.membersOf.get(group.id)?.keys() ?? [])])
      this.unlink(group.id, member);
    super.remove(group);
  }

  /** Tells whether `memberId` is directly in `groupId`. */
  has(groupId: string, memberId: string): boolean {
    return this.membersOf.get(groupId)?.has(memberId) ?? false;
  }

  /** Records a membership that is not there yet. */
  link(groupId: string, member: GroupMember): void {
    let members = this.membersOf.get(groupId);
    if (!members) {
      members = new Map();
      this.membersOf.set(groupId, members);
    }
    members.set(member.value, member);
    let groups = this.groupsOf.get(member.value);
    if (!groups) {
      groups = new Set();
      this.groupsOf.set(member.value, groups);
    }
    groups.add(groupId);
    this.#sorted.delete(groupId);
  }

  /** Removes a membership; returns it, or `undefined` when there was none. */
  unlink(groupId: string, memberId: string): GroupMember | undefined {
    const members = this.membersOf.get(groupId);
    const member = members?.get(memberId);
    if (!members || !member) return undefined;
    members.delete(memberId);
    if (members.size === 0) this.membersOf.delete(groupId);
    const groups = this.groupsOf.get(memberId);
    groups?.delete(groupId);
    if (groups?.size === 0) this.groupsOf.delete(memberId);
    this.#sorted.delete(groupId);
    return member;
  }

  /**
   * Returns the ids of every member of `groupId`, directly or through nested groups, breadth
   * first; `groupId` itself is not included unless it is in a cycle.
   */
  descendants(groupId: string): Set<string> {
    return this.#reach(groupId, (id) => {
      const members = this.membersOf.get(id);
      return members ? [...members.keys()] : [];
    });
  }

  /**
   * Returns the ids of every group that contains `id` directly or through nested groups,
   * breadth first; `id` itself is not included unless it is in a cycle.
   */
  ancestors(id: string): Set<string> {
    return this.#reach(id, (at) => this.groupsOf.get(at) ?? []);
  }

  // Every id reachable from `start` through `next`, breadth first, each once.
  #reach(start: string, next: (id: string) => Iterable<string>): Set<string> {
    const seen = new Set<string>();
    const queue = [start];
    for (let at = 0; at < queue.length; at++) {
      for (const id of next(queue[at] as string)) {
        if (seen.has(id)) continue;
        seen.add(id);
        queue.push(id);
      }
    }
    return seen;
  }
}
