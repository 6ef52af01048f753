import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter } from '../../../src/filter/ast.js';
import { checkFilter, compileSort, matchesFilter, parseFilter } from '../../../src/filter/index.js';
import { defineAttribute } from '../../../src/schema/define-attribute.js';
import type { ScimUser } from '../../../src/schema/user-resource.js';
import type { PostgresUserStore } from '../../../src/stores/postgres/index.js';
import { backends, makeUser, type Backend } from './harness.js';
import { userResourceType } from '../../../src/schema/user-resource-type.js';
import { ENTERPRISE_USER_SCHEMA } from '../../../src/schema/urns.js';

const TYPE = userResourceType();
const T = 'filters';

/** Users that exercise every kind of target: columns, doc strings, arrays, extensions, nulls. */
function seedUsers(): ScimUser[] {
  return [
    makeUser({
      id: 'a01',
      userName: 'Ada@Example.org',
      externalId: 'EXT-1',
      displayName: 'Ada Lovelace',
      active: true,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [
        { value: 'ada@work.example', type: 'work', primary: true },
        { value: 'ada@home.example', type: 'home' },
      ],
      roles: [{ value: 'admin' }],
      [ENTERPRISE_USER_SCHEMA]: { department: 'R&D', manager: { value: 'b02' } },
      meta: {
        resourceType: 'User',
        created: '2024-01-01T00:00:00.000Z',
        lastModified: '2024-06-01T00:00:00.000Z',
        version: 'W/"1"',
      },
    }),
    makeUser({
      id: 'b02',
      userName: 'grace@example.org',
      externalId: 'ext-1',
      displayName: '100%_done\\',
      active: false,
      name: { givenName: 'Grace', familyName: '' },
      emails: [{ value: 'GRACE@Work.example', type: 'work' }],
      [ENTERPRISE_USER_SCHEMA]: { department: 'Ops' },
      meta: {
        resourceType: 'User',
        created: '2024-03-01T12:00:00.000Z',
        lastModified: '2024-03-01T12:00:00.000Z',
        version: 'W/"1"',
      },
    }),
    makeUser({
      id: 'c03',
      userName: 'linus@example.net',
      displayName: 'O\'Brien "Q"',
      active: true,
      emails: [],
      roles: [{ value: '' }],
      meta: {
        resourceType: 'User',
        created: '2025-01-01T00:00:00.000Z',
        lastModified: '2025-01-02T00:00:00.000Z',
        version: 'W/"7"',
      },
    }),
    makeUser({ id: 'd04', userName: 'zed@example.org', name: { givenName: 'Zed' } }),
  ];
}

/** Filters over every operator, logical form and kind of target. */
const FILTERS = [
  'userName eq "ADA@example.ORG"',
  'userName ne "ada@example.org"',
  'userName co "EXAMPLE.O"',
  'userName sw "GR"',
  'userName ew ".NET"',
  'userName gt "h"',
  'userName ge "grace@example.org"',
  'userName lt "b"',
  'userName le "ADA@example.org"',
  'userName pr',
  'id eq "b02"',
  'id gt "a01" and id lt "d04"',
  'id sw "c"',
  'externalId eq "EXT-1"',
  'externalId eq "ext-1"',
  'externalId ne "EXT-1"',
  'externalId pr',
  'not (externalId pr)',
  'externalId co "XT"',
  'displayName co "%"',
  'displayName co "_"',
  'displayName ew "\\\\"',
  'displayName co "\'"',
  'displayName eq "o\'brien \\"q\\""',
  'displayName sw "ADA"',
  'displayName pr',
  'displayName eq null',
  'displayName ne null',
  'active eq true',
  'active eq false',
  'active ne true',
  'name.givenName eq "ada"',
  'name.familyName pr',
  'name pr',
  'name.givenName gt "B"',
  'emails pr',
  'emails co "work"',
  'emails.value ew "WORK.EXAMPLE"',
  'emails.type eq "home"',
  'emails.value ne "ada@work.example"',
  'emails[type eq "work" and value sw "grace"]',
  'emails[type eq "work" and primary eq true]',
  'emails[not (type eq "work")]',
  'emails[value pr]',
  'roles pr',
  'roles.value pr',
  'name[givenName sw "z"]',
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department eq "r&d"',
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "b02"',
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department pr',
  'urn:scimkit:params:scim:schemas:extension:account:2.0:User:status eq "Pending"',
  'meta.created gt "2024-02-01T00:00:00Z"',
  'meta.created eq "2024-01-01T00:00:00Z"',
  'meta.created le "2024-03-01T13:00:00+01:00"',
  'meta.lastModified ge "2024-06-01T00:00:00.000Z"',
  'meta.lastModified ne "2025-01-02T00:00:00Z"',
  'meta.version eq "W/\\"7\\""',
  'schemas eq "URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER"',
  'userName sw "a" or userName sw "z"',
  'id eq "a01" or id eq "c03" or id eq "zz"',
  'id eq "A01" or id eq "b02"',
  'userName eq "ADA@example.org" or (userName eq "LINUS@example.NET" or userName eq "x")',
  'externalId eq "EXT-1" or externalId eq "nope"',
  'externalId eq "a,\\"b\\"{c} \\\\ NULL" or externalId eq "EXT-1" or externalId eq ""',
  'not (externalId eq "ext-1" or externalId eq "nope")',
  'id eq "a01" or userName eq "zed@example.org"',
  'id eq "a01" or (id eq "b02" and active eq true)',
  'not (active eq true) and not (userName sw "zed")',
  'not (emails[type eq "work"] or displayName pr)',
];

const expected = (users: ScimUser[], filter: Filter) =>
  users
    .filter((u) => matchesFilter(u, filter, TYPE))
    .map((u) => u.id)
    .sort();

describe.each(backends)('filter pushdown on $name', ({ open }) => {
  let backend: Backend;
  let store: PostgresUserStore;
  const users = seedUsers();

  beforeAll(async () => {
    backend = await open();
    store = backend.newStore();
    await store.migrate();
    for (const user of users) await store.create(T, user);
    await store.create('other-tenant', makeUser({ id: 'a01', userName: 'ada@example.org' }));
  });
  afterAll(() => backend?.close());

  async function found(filter: Filter) {
    const page = await store.list(T, { filter, startIndex: 1, count: 100 });
    const ids = page.resources.map((u) => u.id);
    expect(page.totalResults).toBe(ids.length);
    return ids;
  }

  it.each(FILTERS)('%s finds what the in-memory evaluator finds', async (text) => {
    const filter = checkFilter(parseFilter(text), TYPE);
    expect(store.capabilities.supportsFilter(filter)).toBe(true);
    expect(await found(filter)).toEqual(expected(users, filter));
  });

  it.each([
    ['userName', 'ascending', ['a01', 'b02', 'c03', 'd04']],
    ['userName', 'descending', ['d04', 'c03', 'b02', 'a01']],
    ['name.givenName', 'ascending', ['a01', 'b02', 'd04', 'c03']],
    ['name.givenName', 'descending', ['c03', 'd04', 'b02', 'a01']],
    ['name.familyName', 'ascending', ['b02', 'a01', 'c03', 'd04']],
    ['active', 'ascending', ['b02', 'd04', 'a01', 'c03']],
    ['emails.value', 'descending', ['c03', 'd04', 'b02', 'a01']],
    ['externalId', 'ascending', ['a01', 'b02', 'c03', 'd04']],
  ] as const)(
    'sorts by %s %s in the order of the core comparator',
    async (sortBy, sortOrder, ids) => {
      const [attribute = sortBy, subAttribute] = sortBy.split('.');
      const path = subAttribute ? { attribute, subAttribute } : { attribute };
      expect(store.capabilities.supportsSort(path)).toBe(true);
      const page = await store.list(T, { startIndex: 1, count: 10, sortBy: path, sortOrder });
      expect(page.resources.map((u) => u.id)).toEqual(ids);
      const byCore = [...users].sort(compileSort(path, sortOrder, TYPE)).map((u) => u.id);
      expect(byCore).toEqual(ids);
      const second = await store.list(T, { startIndex: 2, count: 2, sortBy: path, sortOrder });
      expect(second).toMatchObject({ totalResults: 4 });
      expect(second.resources.map((u) => u.id)).toEqual(ids.slice(1, 3));
    },
  );

  it('sorts and filters together, and by the primary value of a multi-valued attribute', async () => {
    const filter = checkFilter(parseFilter('emails pr'), TYPE);
    const page = await store.list(T, {
      startIndex: 1,
      count: 10,
      filter,
      sortBy: { attribute: 'emails', subAttribute: 'type' },
    });
    // a01's primary email is of type work, so it sorts with b02's work address, by id.
    expect(page).toMatchObject({ totalResults: 2 });
    expect(page.resources.map((u) => u.id)).toEqual(['a01', 'b02']);
  });

  it("filters and sorts on the host's own extension with the query's resource type", async () => {
    const urn = 'urn:example:params:scim:schemas:extension:badge:2.0:User';
    const extension = {
      id: urn,
      name: 'Badge',
      description: 'A host extension',
      attributes: [defineAttribute('badge', 'string')],
    };
    const resourceType = userResourceType({ extensions: [extension] });
    const tenant = 'host-extension';
    await store.create(tenant, makeUser({ id: 'x1', [urn]: { badge: 'B-7' } }));
    await store.create(tenant, makeUser({ id: 'x2', [urn]: { badge: 'a-1' } }));
    const filter: Filter = {
      kind: 'compare',
      path: { schema: urn, attribute: 'badge' },
      op: 'sw',
      value: 'b-',
    };
    expect(store.capabilities.supportsFilter(filter)).toBe(true);
    const found = await store.list(tenant, { startIndex: 1, count: 10, filter, resourceType });
    expect(found.resources.map((u) => u.id)).toEqual(['x1']);
    const sorted = await store.list(tenant, {
      startIndex: 1,
      count: 10,
      resourceType,
      sortBy: { schema: urn, attribute: 'badge' },
    });
    expect(sorted.resources.map((u) => u.id)).toEqual(['x2', 'x1']);
  });

  it('matches stored strings with quotes, backslashes and LIKE wildcards exactly', async () => {
    const alphabet = fc.constantFrom('a', 'B', "'", '"', '\\', '%', '_', ' ', 'é', '$1');
    const text = fc.array(alphabet, { maxLength: 6 }).map((parts) => parts.join(''));
    const op = fc.constantFrom('eq', 'ne', 'co', 'sw', 'ew', 'gt', 'le');
    const attribute = fc.constantFrom('displayName', 'externalId', 'nickName', 'emails.value');
    const tenant = `strings-${backend.name}`;
    const stored = ['a%b', 'a_b', "it's", 'back\\slash', '"q"', 'AB%', '%', '_', '\\%', 'é_$1'];
    const strUsers = stored.map((value, i) =>
      makeUser({
        id: `s${String(i).padStart(2, '0')}`,
        displayName: value,
        externalId: value,
        nickName: value,
        emails: [{ value }],
      }),
    );
    for (const user of strUsers) await store.create(tenant, user);
    await fc.assert(
      fc.asyncProperty(attribute, op, text, async (attr, operator, value) => {
        const [name = attr, sub] = attr.split('.');
        const path = sub ? { attribute: name, subAttribute: sub } : { attribute: name };
        const filter: Filter = { kind: 'compare', path, op: operator as 'eq', value };
        const page = await store.list(tenant, { filter, startIndex: 1, count: 100 });
        expect(page.resources.map((u) => u.id)).toEqual(expected(strUsers, filter));
      }),
      { numRuns: 150 },
    );
  });
});
