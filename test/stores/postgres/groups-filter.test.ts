import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../../src/filter/index.js';
import { PostgresUserStore, type QueryExecutor } from '../../../src/stores/postgres/index.js';

// No statement runs: the capability is decided by the SQL builder alone.
const unused: QueryExecutor = {
  query: () => Promise.reject(new Error('no database in this test')),
  transaction: () => Promise.reject(new Error('no database in this test')),
};
const groups = new PostgresUserStore({ executor: unused }).groups;
const supports = (text: string) => groups.capabilities?.supportsFilter?.(parseFilter(text));

describe('PostgreSQL group filters', () => {
  it.each([
    'displayName eq "Teachers"',
    'externalId eq "x"',
    'id eq "g1"',
    'meta.version eq "W/\\"2\\""',
    'meta.created ge "2025-01-01T00:00:00Z"',
    'meta.lastModified lt "2025-01-01T00:00:00Z"',
    'members[value eq "u1"]',
    'members.value eq "u1"',
    'urn:ietf:params:scim:schemas:core:2.0:Group:displayName eq "x"',
    'displayName eq "a" and (members[value eq "u1"] or not (externalId eq "e"))',
  ])('declares %s', (text) => {
    expect(supports(text)).toBe(true);
  });

  it.each([
    'displayName co "Teach"',
    'displayName pr',
    'displayName gt "M"',
    'externalId le "x"',
    'members[display eq "Ada"]',
    'members.type eq "Group"',
    'members pr',
    'members.value ne "u1"',
    'members[value eq "u1" or value eq "u2"]',
    'meta.created gt "yesterday"',
    // Unknown to the Group schema: the core checks paths against the host's own type first.
    'urn:example:ext:2.0:Group:code eq "x"',
  ])('declares %s as well (every operator, as the memory group store)', (text) => {
    expect(supports(text)).toBe(true);
  });

  it.each(['members.$ref eq "x"', 'members[$ref pr]', 'displayName pr and members.$ref pr'])(
    "refuses %s: a member's $ref is not stored (so the core answers a precise 400)",
    (text) => {
      expect(supports(text)).toBe(false);
    },
  );

  it('sorts by every attribute but members', () => {
    const sorts = groups.capabilities?.supportsSort;
    for (const attribute of ['displayName', 'externalId', 'id'])
      expect(sorts?.({ attribute }), attribute).toBe(true);
    expect(sorts?.({ attribute: 'meta', subAttribute: 'lastModified' })).toBe(true);
    expect(sorts?.({ attribute: 'members', subAttribute: 'value' })).toBe(false);
  });

  it('answers an undeclared filter sent anyway with 400 invalidFilter, not a 500', async () => {
    await expect(
      groups.list('t', { startIndex: 1, count: 1, filter: parseFilter('members.$ref co "x"') }),
    ).rejects.toMatchObject({ status: 400, scimType: 'invalidFilter' });
  });
});
