import type { Elements, ResourceTable } from './filter-targets.js';
import type { TableNames } from './table-names.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

/** The alias group statements give the groups table, so a member condition can name its row. */
export const GROUP_ALIAS = 'grp';

/** The sub-attributes of a member the membership table keeps, and whether each is NOT NULL. */
const MEMBER_COLUMNS: Readonly<Record<string, { column: string; notNull: boolean }>> = {
  value: { column: 'member_id', notNull: true },
  type: { column: 'member_type', notNull: true },
  display: { column: 'display', notNull: false },
};

/**
 * Describes the groups table to the filter and sort compilers (`compileSqlFilter`, `sortKey`):
 * `id`, `externalId` and `displayName` (by `display_name_key`, scimkit's folding) are columns;
 * `members` are the group's rows of the membership table, so `members[value eq "u"]` is one
 * primary-key probe per group and never reads a member list. A member's `$ref` is not kept (it
 * depends on the request's base URL), so a filter on it is unsupported, as the memory store
 * declares too; `members` has no order to sort by.
 *
 * @internal
 */
export function groupsTable(t: TableNames): ResourceTable {
  const members: Elements = {
    source: (alias) => ({
      from: `${t.groupMembers} AS ${alias}`,
      on: `${alias}.tenant = ${GROUP_ALIAS}.tenant AND ${alias}.group_id = ${GROUP_ALIAS}.id`,
    }),
    self: () => {
      throw new UnsupportedFilterError('members is complex: compare one of its sub-attributes');
    },
    member: (alias, name) => {
      const kept = MEMBER_COLUMNS[name];
      if (!kept) throw new UnsupportedFilterError(`Groups cannot be filtered by members.${name}.`);
      const text = `${alias}.${kept.column}`;
      return { json: `to_jsonb(${text})`, text, ...(kept.notNull && { column: true as const }) };
    },
  };
  return {
    columns: {
      id: { column: 'id', nullable: false },
      displayName: { column: 'display_name', nullable: false, key: 'display_name_key' },
      externalId: { column: 'external_id', nullable: true },
    },
    rows: { members },
  };
}
