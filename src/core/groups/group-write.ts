import type { GroupMember, ScimGroup } from '../../schema/group-schema.js';
import type { DeltaPlan } from '../../patch/delta-plan.js';

/** A planned group write: the next attributes (or none) and the membership change. */
export interface PlannedGroupWrite {
  /** The next version of the group without members; `null` when only members change. */
  readonly group: ScimGroup | null;
  readonly members: DeltaPlan;
  /** The time of the write. */
  readonly at: string;
}

/** What a committed group write did, as the store reported it. */
export interface GroupWritten {
  /** The group after the write, without members. */
  readonly group: ScimGroup;
  /** Whether an attribute other than the members changed. */
  readonly renamed: boolean;
  readonly added: readonly GroupMember[];
  readonly removed: readonly GroupMember[];
}
