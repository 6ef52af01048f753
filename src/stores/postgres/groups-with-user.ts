import type { MemberGroup } from '../../contracts/group-store.js';
import type { TableNames } from './table-names.js';

/**
 * A column that reads a user's direct groups in the statement that reads the user (`memberId`
 * the SQL of the user's id, `tenant` the SQL of its tenant, `$1` unless given): a JSON array of
 * `[id, displayName, nested]` in id order, `nested` telling that the group is itself a member of
 * a group, or NULL when the user is in none. One index probe on the member index for a user in
 * no group.
 */
export const groupsColumn = (t: TableNames, memberId: string, tenant = '$1'): string =>
  `(SELECT json_agg(json_build_array(g.id, g.display_name,
      (SELECT 1 FROM ${t.groupMembers} AS n
        WHERE n.tenant = ${tenant} AND n.member_id = g.id LIMIT 1) IS NOT NULL) ORDER BY g.id)
    FROM ${t.groupMembers} AS gm JOIN ${t.groups} AS g ON g.tenant = gm.tenant AND g.id = gm.group_id
    WHERE gm.tenant = ${tenant} AND gm.member_id = ${memberId})`;

/** One group of {@link groupsColumn}: its id, its displayName, whether it is in a group. */
type GroupCell = [string, string, boolean];

/**
 * Reads {@link groupsColumn}'s value as the User's `groups`: every group direct, in id order,
 * when none is itself in a group (then there is no indirect one). `undefined` when one is
 * nested: the indirect groups above it need a read of their own (`groupsOfMembers`).
 */
export function groupsFromColumn(value: unknown): readonly MemberGroup[] | undefined {
  if (value === null || value === undefined) return [];
  const cells = (typeof value === 'string' ? JSON.parse(value) : value) as GroupCell[];
  const groups: MemberGroup[] = [];
  for (const [id, display, nested] of cells) {
    if (nested) return undefined;
    groups.push({ value: id, display, type: 'direct' });
  }
  return groups;
}
