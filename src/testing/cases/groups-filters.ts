import type { GroupStore } from '../../contracts/group-store.js';
import type { ScimGroup } from '../../schema/group-schema.js';
import { groupResourceType } from '../../schema/group-resource-type.js';
import type { Filter } from '../../filter/ast.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { compare, eq } from './filter-builders.js';
import { groupCase, type GroupCaseContext } from './groups-factory.js';
import { GROUP_SCHEMA } from '../../schema/urns.js';

const hasMember = (id: string): Filter => ({
  kind: 'valuePath',
  path: { attribute: 'members' },
  filter: eq('value', id),
});

/** A group made at a given time (created and last modified), for `meta` comparisons. */
const madeAt = (make: GroupCaseContext['group'], at: string, overrides: Partial<ScimGroup>) =>
  make({
    ...overrides,
    meta: { resourceType: 'Group', created: at, lastModified: at, version: 'W/"1"' },
  });

/**
 * Lists each group of `cases` (a filter and the ids it must find, in id order) that the store
 * declares; skips the case naming the filters it does not declare, once the others passed.
 */
async function expectFound(
  ctx: StoreTestContext,
  groups: GroupStore,
  cases: readonly (readonly [string, Filter, readonly string[]])[],
): Promise<void> {
  const undeclared: string[] = [];
  for (const [what, filter, expected] of cases) {
    if (!(groups.capabilities?.supportsFilter?.(filter) ?? true)) {
      undeclared.push(what);
      continue;
    }
    const page = await groups.list(ctx.tenant, {
      startIndex: 1,
      count: 10,
      filter,
      members: false,
      resourceType: groupResourceType(),
    });
    check.deepEqual(
      page.resources.map((g) => g.id),
      expected,
      what,
    );
    check.equal(page.totalResults, expected.length, `${what}: totalResults`);
  }
  if (undeclared.length > 0) ctx.skip(`the store does not declare: ${undeclared.join('; ')}`);
}

/** The group filters the IdPs send, each checked when the store declares it. */
export const groupFilterCases: readonly StoreConformanceCase[] = [
  {
    id: 'groups.filters',
    title:
      'list answers displayName (regardless of case), externalId, id, meta and member filters, alone and combined',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u, v] = await createUsers(2);
      const lincoln = group({ displayName: 'École Lincoln', externalId: 'ext-L' });
      const teachers = group({ displayName: 'Teachers' });
      const other = group({ displayName: 'Other' });
      await groups.create(ctx.tenant, lincoln, [{ value: u }]);
      await groups.create(ctx.tenant, teachers, [{ value: u }, { value: v }]);
      await groups.create(ctx.tenant, other, []);
      await groups.create(ctx.otherTenant, group({ displayName: 'École Lincoln' }), []);
      const cases: [string, Filter, string[]][] = [
        ['displayName eq, other case', eq('displayName', 'éCOLE LINCOLN'), [lincoln.id]],
        ['externalId eq', eq('externalId', 'ext-L'), [lincoln.id]],
        ['externalId eq, other case', eq('externalId', 'EXT-L'), []],
        ['id eq', eq('id', teachers.id), [teachers.id]],
        ['members[value eq]', hasMember(v), [teachers.id]],
        ['members.value eq', eq('members.value', u), [lincoln.id, teachers.id]],
        [
          'qualified members.value eq',
          {
            kind: 'compare',
            path: { schema: GROUP_SCHEMA, attribute: 'members', subAttribute: 'value' },
            op: 'eq',
            value: u,
          },
          [lincoln.id, teachers.id],
        ],
        [
          'displayName and member',
          { kind: 'and', left: eq('displayName', 'teachers'), right: hasMember(u) },
          [teachers.id],
        ],
        [
          'not externalId (groups without one included)',
          { kind: 'not', filter: eq('externalId', 'ext-L') },
          [teachers.id, other.id],
        ],
        [
          'meta.lastModified gt',
          {
            kind: 'compare',
            path: { attribute: 'meta', subAttribute: 'lastModified' },
            op: 'gt',
            value: '2000-01-01T00:00:00Z',
          },
          [lincoln.id, teachers.id, other.id],
        ],
      ];
      await expectFound(ctx, groups, cases);
    },
  },
  {
    id: 'groups.filter-operators',
    title:
      'list answers every operator on displayName (regardless of case), externalId, id, meta and members (value, display, type), as the filter engine does',
    async run(ctx) {
      const { groups, group, createUsers } = groupCase(ctx);
      const [u, v] = await createUsers(2);
      const [t1, t2, t3] = [
        '2025-01-01T00:00:00.000Z',
        '2025-02-01T00:00:00.000Z',
        '2025-03-01T00:00:00.000Z',
      ];
      const a = madeAt(group, t1, { displayName: 'École Lincoln', externalId: 'ext-L' });
      const b = madeAt(group, t2, { displayName: 'Teachers', externalId: 'ext-T' });
      const c = madeAt(group, t3, { displayName: 'art club' });
      await groups.create(ctx.tenant, c, []);
      await groups.create(ctx.tenant, a, [
        { value: u, display: 'Ada' },
        { value: v, display: 'Grace' },
      ]);
      await groups.create(ctx.tenant, b, [{ value: u }, { value: c.id }]);
      await groups.create(ctx.otherTenant, group({ displayName: 'Art Club' }), []);
      const [A, B, C] = [a.id, b.id, c.id];
      const not = (filter: Filter): Filter => ({ kind: 'not', filter });
      const members = (filter: Filter): Filter => ({
        kind: 'valuePath',
        path: { attribute: 'members' },
        filter,
      });
      const cases: [string, Filter, string[]][] = [
        ['displayName pr', { kind: 'present', path: { attribute: 'displayName' } }, [A, B, C]],
        ['displayName co, folded', compare('displayName', 'co', 'LINC'), [A]],
        ['displayName sw', compare('displayName', 'sw', 't'), [B]],
        ['displayName ew', compare('displayName', 'ew', 'CLUB'), [C]],
        ['displayName gt, folded', compare('displayName', 'gt', 'B'), [A, B]],
        ['displayName lt', compare('displayName', 'lt', 'Teachers'), [C]],
        ['displayName le', compare('displayName', 'le', 'TEACHERS'), [B, C]],
        ['displayName ge', compare('displayName', 'ge', 'ÉCOLE LINCOLN'), [A]],
        ['displayName ne', compare('displayName', 'ne', 'teachers'), [A, C]],
        ['displayName eq null', eq('displayName', null), []],
        ['externalId pr', { kind: 'present', path: { attribute: 'externalId' } }, [A, B]],
        ['not externalId pr', not({ kind: 'present', path: { attribute: 'externalId' } }), [C]],
        ['externalId eq null', eq('externalId', null), [C]],
        ['externalId sw', compare('externalId', 'sw', 'ext-'), [A, B]],
        ['externalId ew, case-exact', compare('externalId', 'ew', 'l'), []],
        ['externalId gt', compare('externalId', 'gt', 'ext-M'), [B]],
        ['id ge', compare('id', 'ge', B), [B, C]],
        ['id lt', compare('id', 'lt', B), [A]],
        ['meta.created lt', compare('meta.created', 'lt', t2), [A]],
        ['meta.created ge', compare('meta.created', 'ge', t2), [B, C]],
        ['meta.lastModified le', compare('meta.lastModified', 'le', t3), [A, B, C]],
        ['members pr', { kind: 'present', path: { attribute: 'members' } }, [A, B]],
        ['not members pr', not({ kind: 'present', path: { attribute: 'members' } }), [C]],
        ['members.display eq, caseless', eq('members.display', 'ada'), [A]],
        [
          'members.display pr',
          { kind: 'present', path: { attribute: 'members', subAttribute: 'display' } },
          [A],
        ],
        ['members[display sw]', members(compare('display', 'sw', 'gR')), [A]],
        ['members.type eq, caseless', eq('members.type', 'group'), [B]],
        [
          'members[type and value]',
          members({ kind: 'and', left: eq('type', 'User'), right: eq('value', v) }),
          [A],
        ],
        [
          'members[value or value]',
          members({ kind: 'or', left: eq('value', u), right: eq('value', v) }),
          [A, B],
        ],
        ['members[not value]', members(not(eq('value', u))), [A, B]],
        ['members.value ne', compare('members.value', 'ne', u), [A, B, C]],
        [
          'members[type and value gt]',
          members({ kind: 'and', left: eq('type', 'User'), right: compare('value', 'gt', u) }),
          [A],
        ],
      ];
      await expectFound(ctx, groups, cases);
    },
  },
];
