import type { Elements, ResourceTable } from './filter-targets.js';
import type { JsonRef } from './sql-predicates.js';
import type { TableNames } from './table-names.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

/** The alias group statements give the groups table, so a member condition can name its row. */
export const GROUP_ALIAS = 'grp';

/** The sub-attributes of a member the membership table keeps, and whether each is NOT NULL. */
const MEMBER_COLUMNS: Readonly<
  Record<string, { column: string; notNull: boolean; folded?: (alias: string) => string }>
> = {
  value: { column: 'member_id', notNull: true },
  // `User` or `Group` (a CHECK says so): ASCII, which lower() under "C" folds as foldCase does.
  type: {
    column: 'member_type',
    notNull: true,
    folded: (a) => `lower(${a}.member_type COLLATE "C")`,
  },
  display: { column: 'display', notNull: false, folded: (a) => `${a}.display_key` },
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
      const ref = (text: string): JsonRef => ({
        json: `to_jsonb(${text})`,
        text,
        ...(kept.notNull && { column: true as const }),
      });
      // The folding (scimkit's foldCase) serves caseIgnore comparisons.
      const value = ref(`${alias}.${kept.column}`);
      return kept.folded ? { ...value, folded: ref(kept.folded(alias)) } : value;
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
