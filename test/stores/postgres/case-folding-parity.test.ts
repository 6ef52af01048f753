// caseIgnore filters and sorts on PostgreSQL fold as the core does (NFC, then Unicode simple
// case folding), not as the database's lower(): a decomposed "émile", a final sigma, the
// capital sharp s and the Turkish dotted I find exactly what the memory store finds, on every
// kind of place a value lives (document, array element, extension, a member's display).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScimResource } from '../../../src/contracts/resource-store.js';
import { compileHostType } from '../../../src/core/host-types/compile-host-type.js';
import type { Filter } from '../../../src/filter/ast.js';
import { checkFilter, compileSort, matchesFilter, parseFilter } from '../../../src/filter/index.js';
import { defineAttribute as attr, defineSchema } from '../../../src/index.js';
import { foldCase } from '../../../src/schema/fold-case.js';
import { groupResourceType } from '../../../src/schema/group-resource-type.js';
import type { GroupMember, ScimGroup } from '../../../src/schema/group-schema.js';
import type { ScimUser } from '../../../src/schema/user-resource.js';
import { userResourceType } from '../../../src/schema/user-resource-type.js';
import { ENTERPRISE_USER_SCHEMA } from '../../../src/schema/urns.js';
import { MemoryResourceStore } from '../../../src/stores/memory/index.js';
import {
  PostgresResourceStore,
  type PostgresUserStore,
} from '../../../src/stores/postgres/index.js';
import { everyStore, type OpenedStore } from '../../core/every-store.js';
import { setup } from '../../core/harness.js';
import { backends, makeUser, type Backend } from './harness.js';

const USER = userResourceType();
const T = 'folding';
const DEPARTMENT = `${ENTERPRISE_USER_SCHEMA}:department`;

// Precomposed and decomposed é, Greek capitals with the final sigma, the capital sharp s, the
// dotted capital I and the dotless small i.
const SEED: ScimUser[] = [
  makeUser({
    id: 'f01',
    displayName: '\u00c9mile Zola',
    name: { givenName: '\u00c9mile', familyName: 'Zola' },
    emails: [{ value: '\u00c9MILE@EXAMPLE.FR', type: 'work' }],
    [ENTERPRISE_USER_SCHEMA]: { department: 'R\u00c9SEAU' },
  }),
  makeUser({
    id: 'f02',
    displayName: 'E\u0301mile Durand',
    name: { givenName: 'E\u0301MILE', familyName: 'Durand' },
    emails: [{ value: 'e\u0301mile@example.fr', type: 'Home' }],
    [ENTERPRISE_USER_SCHEMA]: { department: 're\u0301seau' },
  }),
  makeUser({
    id: 'f03',
    displayName: '\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3',
    name: { givenName: '\u039f\u03b4\u03c5\u03c3\u03c3\u03b5\u03cd\u03c2', familyName: 'Ithaca' },
    emails: [{ value: '\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c3@example.gr' }],
  }),
  makeUser({
    id: 'f04',
    displayName: 'Stra\u00dfe',
    name: { givenName: 'Hans', familyName: 'STRA\u1e9eE' },
    emails: [{ value: 'STRASSE@example.de' }],
  }),
  makeUser({
    id: 'f05',
    displayName: '\u0130stanbul',
    name: { givenName: '\u0130pek', familyName: 'Y\u0131lmaz' },
    emails: [{ value: 'ipek@example.tr' }],
    [ENTERPRISE_USER_SCHEMA]: { department: 'I\u0307stanbul' },
  }),
];

const FILTERS = [
  'displayName sw "\u00e9mile"',
  'displayName sw "e\u0301mile"',
  'displayName co "MILE"',
  'displayName eq "\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c2"',
  'displayName eq "\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c3"',
  'displayName ew "\u03a3"',
  'displayName eq "STRASSE"',
  'displayName eq "STRA\u1e9eE"',
  'displayName eq "istanbul"',
  'displayName eq "\u0130STANBUL"',
  'displayName gt "\u00e9"',
  'displayName lt "e\u0301"',
  'name.givenName eq "\u00e9mile"',
  'name.givenName ne "\u00c9MILE"',
  'name.givenName ew "\u03a3"',
  'name.givenName eq "i\u0307pek"',
  'name.givenName sw "\u0130"',
  'name.familyName eq "stra\u00dfe"',
  'name.familyName eq "strasse"',
  'name.familyName co "\u0131"',
  'name.familyName co "I"',
  'emails.value sw "\u00e9mile@"',
  'emails.value co "\u03a3\u03a3"',
  'emails.value eq "strasse@EXAMPLE.de"',
  'emails[type eq "home" and value sw "\u00c9"]',
  'emails.type eq "HOME"',
  `${DEPARTMENT} eq "r\u00e9seau"`,
  `${DEPARTMENT} eq "\u0130stanbul"`,
  `${DEPARTMENT} eq "i\u0307stanbul"`,
  'not (name.givenName eq "\u00e9mile")',
];

const expected = <R extends object>(resources: readonly R[], filter: Filter, type = USER) =>
  resources
    .filter((r) => matchesFilter(r as Record<string, unknown>, filter, type))
    .map((r) => (r as { id: string }).id)
    .sort();

const ids = (resources: readonly { id: string }[]) => resources.map((r) => r.id);

describe.each(backends)('caseIgnore folding on $name', ({ open }) => {
  let backend: Backend;
  let store: PostgresUserStore;

  beforeAll(async () => {
    backend = await open();
    store = backend.newStore();
    await store.migrate();
    for (const user of SEED) await store.create(T, user);
  });
  afterAll(() => backend?.close());

  it('folds as the core: decomposed é, final sigma and capital sharp s alike, ß and ss apart', () => {
    expect(foldCase('E\u0301MILE')).toBe(foldCase('\u00e9mile'));
    expect(foldCase('\u039f\u0394\u03a5\u03a3')).toBe(foldCase('\u03bf\u03b4\u03c5\u03c2'));
    expect(foldCase('STRA\u1e9eE')).toBe(foldCase('stra\u00dfe'));
    expect(foldCase('STRASSE')).not.toBe(foldCase('stra\u00dfe'));
    // Simple folding leaves the dotted capital I alone (its folding to i is Turkic or full).
    expect(foldCase('\u0130')).toBe('\u0130');
  });

  it.each(FILTERS)('%s finds what the memory store finds', async (text) => {
    const filter = checkFilter(parseFilter(text), USER);
    expect(store.capabilities.supportsFilter(filter)).toBe(true);
    const page = await store.list(T, { filter, startIndex: 1, count: 100 });
    expect(ids(page.resources).sort()).toEqual(expected(SEED, filter));
    expect(page.totalResults).toBe(page.resources.length);
  });

  it('finds the users a person would expect regardless of case and composition', async () => {
    const find = async (text: string) => {
      const filter = checkFilter(parseFilter(text), USER);
      return ids((await store.list(T, { filter, startIndex: 1, count: 100 })).resources).sort();
    };
    expect(await find('name.givenName eq "\u00e9mile"')).toEqual(['f01', 'f02']);
    expect(await find('displayName eq "\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c2"')).toEqual(
      ['f03'],
    );
    expect(await find('emails.value co "\u03a3\u03a3"')).toEqual(['f03']);
    expect(await find(`${DEPARTMENT} eq "r\u00e9seau"`)).toEqual(['f01', 'f02']);
    expect(await find('name.familyName eq "stra\u00dfe"')).toEqual(['f04']);
    expect(await find('name.familyName eq "strasse"')).toEqual([]);
    expect(await find('displayName eq "istanbul"')).toEqual([]);
  });

  it.each(['displayName', 'name.givenName', 'name.familyName', 'emails.value'])(
    'sorts by %s in the order of the core comparator, both ways',
    async (sortBy) => {
      const [attribute = sortBy, subAttribute] = sortBy.split('.');
      const path = subAttribute ? { attribute, subAttribute } : { attribute };
      for (const sortOrder of ['ascending', 'descending'] as const) {
        const page = await store.list(T, { startIndex: 1, count: 10, sortBy: path, sortOrder });
        const byCore = [...SEED].sort(compileSort(path, sortOrder, USER));
        expect(ids(page.resources)).toEqual(ids(byCore));
      }
    },
  );

  it("filters groups by a member's display as the core folds it", async () => {
    const groups = store.groups;
    if (!groups) throw new Error('the PostgreSQL user store keeps groups');
    const at = '2025-01-01T00:00:00.000Z';
    const group = (id: string): ScimGroup => ({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      id,
      displayName: id,
      meta: { resourceType: 'Group', created: at, lastModified: at, version: 'W/"1"' },
    });
    await groups.create(T, group('g-accent'), [{ value: 'f02', display: 'E\u0301MILE Durand' }]);
    await groups.create(T, group('g-greek'), [
      { value: 'f03', display: '\u039f\u0394\u03a5\u03a3' },
    ]);
    const type = groupResourceType();
    const members: Record<string, GroupMember[]> = {
      'g-accent': [{ value: 'f02', type: 'User', display: 'E\u0301MILE Durand' }],
      'g-greek': [{ value: 'f03', type: 'User', display: '\u039f\u0394\u03a5\u03a3' }],
    };
    const oracle = Object.keys(members).map((id) => ({ ...group(id), members: members[id] }));
    for (const text of [
      'members.display sw "\u00e9mile"',
      'members[display eq "\u03bf\u03b4\u03c5\u03c2"]',
      'members.display co "\u03a3"',
      'members.type eq "user"',
      'members.display eq "emile durand"',
    ]) {
      const filter = checkFilter(parseFilter(text), type);
      const page = await groups.list(T, { filter, startIndex: 1, count: 10 });
      expect([text, ids(page.resources).sort()]).toEqual([text, expected(oracle, filter, type)]);
    }
  });

  it("filters and sorts a host type's caseIgnore values as the core folds them", async () => {
    const COURSE = 'urn:example:params:scim:schemas:test:2.0:Course';
    const type = compileHostType({
      name: 'Course',
      endpoint: '/Courses',
      schema: defineSchema({
        id: COURSE,
        name: 'Course',
        description: 'A course',
        attributes: [
          attr('displayName', 'string', { required: true }),
          attr('code', 'string', { caseExact: true }),
          attr('tags', 'string', { multiValued: true }),
        ],
      }),
      store: new MemoryResourceStore(),
    });
    const meta = { resourceType: 'Course', created: '2025-01-01T00:00:00.000Z' };
    const course = (id: string, values: Record<string, unknown>): ScimResource => ({
      schemas: [COURSE],
      id,
      ...values,
      meta: { ...meta, lastModified: meta.created, version: 'W/"1"' },
    });
    const courses = [
      course('c1', {
        displayName: '\u00c9TUDES',
        code: '\u00c9T',
        tags: ['\u03a3\u039f\u03a6\u0399\u0391'],
      }),
      course('c2', {
        displayName: 'e\u0301tudes II',
        code: 'e\u0301t',
        tags: ['\u03c3\u03bf\u03c6\u03b9\u03b1'],
      }),
      course('c3', { displayName: 'Stra\u00dfenbau', code: 'ST', tags: ['STRASSE'] }),
    ];
    const rooms = new PostgresResourceStore({
      executor: backend.executor,
      schema: backend.schema,
      resourceType: 'Course',
    });
    for (const c of courses) await rooms.create(T, c, { uniqueKeys: {} });
    for (const text of [
      'displayName sw "\u00e9tudes"',
      'displayName co "E\u0301TUDES I"',
      'displayName sw "STRA\u1e9e"',
      'code eq "\u00e9t"',
      'code eq "e\u0301t"',
      'tags eq "\u03c3\u03bf\u03c6\u03b9\u03b1"',
      'tags ew "\u0399\u0391"',
      'tags eq "stra\u00dfe"',
    ]) {
      const filter = checkFilter(parseFilter(text), type);
      const page = await rooms.list(T, { filter, startIndex: 1, count: 10, resourceType: type });
      expect([text, ids(page.resources).sort()]).toEqual([text, expected(courses, filter, type)]);
    }
    for (const sortOrder of ['ascending', 'descending'] as const) {
      const sortBy = { attribute: 'displayName' };
      const page = await rooms.list(T, {
        startIndex: 1,
        count: 10,
        sortBy,
        sortOrder,
        resourceType: type,
      });
      expect(ids(page.resources)).toEqual(
        ids([...courses].sort(compileSort(sortBy, sortOrder, type))),
      );
    }
  });
});

describe.each(everyStore)(
  'GET /Users filters regardless of case and composition on $name',
  ({ open }) => {
    let opened: OpenedStore;
    let harness: ReturnType<typeof setup>;
    const created: Record<string, string> = {};

    beforeAll(async () => {
      opened = await open();
      harness = setup({ store: opened.store });
      const people = {
        precomposed: {
          givenName: '\u00c9mile',
          familyName: '\u039f\u0394\u03a5\u03a3\u03a3\u0395\u03a5\u03a3',
        },
        decomposed: { givenName: 'E\u0301MILE', familyName: 'Stra\u00dfe' },
        other: { givenName: 'Emile', familyName: 'STRASSE' },
      };
      for (const [key, name] of Object.entries(people)) {
        const user = await harness.createUser(`${key}@example.org`, { name });
        created[key] = user.id;
      }
    });
    afterAll(() => opened?.close());

    it.each([
      ['name.givenName eq "\u00e9mile"', ['precomposed', 'decomposed']],
      ['name.givenName sw "e\u0301m"', ['precomposed', 'decomposed']],
      ['name.familyName eq "\u03bf\u03b4\u03c5\u03c3\u03c3\u03b5\u03c5\u03c2"', ['precomposed']],
      ['name.familyName eq "STRA\u1e9eE"', ['decomposed']],
      ['name.familyName eq "strasse"', ['other']],
    ])('%s', async (filter, keys) => {
      const reply = await harness.request('GET', '/Users', {
        query: `filter=${encodeURIComponent(filter)}&sortBy=userName`,
      });
      expect(reply.status).toBe(200);
      const expectedIds = keys.map((key) => created[key]).sort();
      expect(reply.body.Resources.map((u: { id: string }) => u.id).sort()).toEqual(expectedIds);
    });
  },
);
