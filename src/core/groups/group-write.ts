import type { MemberInput } from '../../contracts/group-store.js';
import type { DeltaPlan } from '../../patch/delta-plan.js';
import type { GroupMember, ScimGroup } from '../../schema/group-schema.js';

/** A planned group write: the next attributes (or none) and the membership change. */
export interface PlannedGroupWrite {
  /** The next version of the group without members; `null` when only members change. */
  readonly group: ScimGroup | null;
  /** The membership change. */
  readonly members: DeltaPlan;
  /** A new group's members, as its POST lists them. */
  readonly created?: readonly MemberInput[];
  /** The time of the write. */
  readonly at: string;
  /**
   * Whether the write holds only on the version it was planned from, even for a membership
   * delta alone: it was planned from the whole member list read at that version.
   */
  readonly onVersion?: boolean;
}

/** What a committed group write did, as the store reported it. */
export interface GroupWritten {
  /** The group after the write, without members. */
  readonly group: ScimGroup;
  /** Whether an attribute other than the members changed (a new group: false). */
  readonly renamed: boolean;
  readonly added: readonly GroupMember[];
  readonly removed: readonly GroupMember[];
}
