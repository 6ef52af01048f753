import { groupResourceType } from '../../schema/group-resource-type.js';
import type { Filter } from '../../filter/ast.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';
import { eq } from './filter-builders.js';
import { groupCase } from './groups-factory.js';
import { GROUP_SCHEMA } from '../../schema/urns.js';

const hasMember = (id: string): Filter => ({
  kind: 'valuePath',
  path: { attribute: 'members' },
  filter: eq('value', id),
});

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
      let checked = 0;
      for (const [what, filter, expected] of cases) {
        if (!(groups.capabilities?.supportsFilter?.(filter) ?? true)) continue;
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
        checked += 1;
      }
      if (checked === 0) ctx.skip('the store declares none of these filters');
    },
  },
];
