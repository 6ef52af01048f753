// On PostgreSQL, the store of a host resource type answers each filter and
// sort the memory store answers, with the same resources in the same order (the memory store
// is the oracle), by index and by keyset, over every attribute type: strings case-exact or
// not, booleans, integers, decimals, dateTimes, references, binaries, multi-valued simple and
// complex values, a singular complex value, an extension attribute and the meta timestamps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceListQuery, ScimResource } from '../../../src/contracts/resource-store.js';
import type { ListPosition } from '../../../src/contracts/store-query.js';
import { compileHostType } from '../../../src/core/host-types/compile-host-type.js';
import { checkFilter, parseFilter } from '../../../src/filter/index.js';
import { defineAttribute as attr, defineSchema } from '../../../src/index.js';
import { checkSortBy } from '../../../src/core/handlers/sort-by.js';
import { MemoryResourceStore } from '../../../src/stores/memory/index.js';
import { PostgresResourceStore } from '../../../src/stores/postgres/index.js';
import { backends, type Backend } from './harness.js';

const CORE = 'urn:example:params:scim:schemas:test:2.0:Course';
const EXT = 'urn:example:params:scim:schemas:extension:test:2.0:Course';
const ref = [attr('value', 'string', { caseExact: true }), attr('display', 'string')] as const;

const TYPE = compileHostType({
  name: 'Course',
  endpoint: '/Courses',
  schema: defineSchema({
    id: CORE,
    name: 'Course',
    description: 'A course',
    attributes: [
      attr('displayName', 'string', { required: true }),
      attr('code', 'string', { caseExact: true }),
      attr('open', 'boolean'),
      attr('seats', 'integer'),
      attr('fee', 'decimal'),
      attr('starts', 'dateTime'),
      attr('homepage', 'reference', { referenceTypes: ['external'] }),
      attr('badge', 'binary'),
      attr('tags', 'string', { multiValued: true }),
      attr('teacher', 'complex', { subAttributes: ref }),
      attr('students', 'complex', { multiValued: true, subAttributes: ref }),
    ],
  }),
  extensions: [
    defineSchema({
      id: EXT,
      name: 'CourseExtension',
      description: 'More of a course',
      attributes: [attr('room', 'string'), attr('level', 'integer')],
    }),
  ],
  store: new MemoryResourceStore(),
});
const T = 'parity';

const course = (n: number, values: Record<string, unknown>): ScimResource => {
  const at = `2025-${String(n).padStart(2, '0')}-01T00:00:00.000Z`;
  const meta = { resourceType: 'Course', created: at, lastModified: at, version: `W/"${n}"` };
  return { schemas: [CORE, EXT], id: `c${n}`, ...values, meta };
};

const SEED: ScimResource[] = [
  course(1, {
    displayName: 'Algebra',
    code: 'MATH-1',
    open: true,
    seats: 30,
    fee: 12.5,
    starts: '2026-09-01T08:00:00Z',
    homepage: 'https://example.org/Algebra',
    badge: 'QUJD',
    tags: ['math', 'Core'],
    teacher: { value: 'u1', display: 'Ada Lovelace' },
    students: [{ value: 'u2', display: 'Alan' }, { value: 'u3' }],
    [EXT]: { room: 'B-12', level: 2 },
  }),
  course(2, {
    displayName: 'biology',
    code: 'math-2',
    open: false,
    seats: 8,
    fee: 9.75,
    starts: '2026-02-01T10:00:00+01:00',
    tags: ['science'],
    teacher: { value: 'u4', display: 'Grace' },
    students: [{ value: 'u3', display: 'Barbara' }],
    [EXT]: { room: 'a-1' },
  }),
  course(3, { displayName: 'Chemistry 100%_\\', seats: 30, externalId: 'EXT-3' }),
  course(4, {
    displayName: 'algebra II',
    code: 'MATH-3',
    open: true,
    fee: 100,
    starts: '2027-01-01T00:00:00Z',
    tags: [],
    [EXT]: { level: 10 },
  }),
  course(5, { displayName: 'Drawing', externalId: 'ext-5', teacher: { display: 'nobody' } }),
];

const FILTERS = [
  'displayName eq "ALGEBRA"',
  'displayName co "ALG"',
  'displayName sw "b"',
  'displayName ew "%_\\\\"',
  'displayName gt "B"',
  'displayName le "algebra"',
  'displayName ne "drawing"',
  'code eq "MATH-1"',
  'code eq "math-1"',
  'code sw "MATH"',
  'code gt "MATH-1"',
  'code pr',
  'code eq null',
  'open eq true',
  'open eq false',
  'not (open pr)',
  'seats eq 30',
  'seats gt 8',
  'seats le 8',
  'fee gt 10',
  'fee lt 10.5',
  'fee eq 100',
  'starts gt "2026-06-01T00:00:00Z"',
  'starts eq "2026-02-01T09:00:00Z"',
  'starts le "2026-09-01T08:00:00.000Z"',
  'starts pr',
  'homepage co "/Algebra"',
  'homepage eq "https://example.org/algebra"',
  'badge eq "QUJD"',
  'tags eq "math"',
  'tags eq "CORE"',
  'tags co "i"',
  'tags pr',
  'tags ne "math"',
  'teacher.value eq "u1"',
  'teacher.display sw "ada"',
  'teacher pr',
  'teacher.value pr',
  'teacher[value eq "u4" or display eq "NOBODY"]',
  'students pr',
  'students eq "u3"',
  'students.value eq "u2"',
  'students.display pr',
  'students[value eq "u3" and display eq "barbara"]',
  'students[not (display pr)]',
  'students.value ne "u3"',
  `${EXT}:room eq "b-12"`,
  `${EXT}:level gt 1`,
  `${EXT}:room pr`,
  'externalId eq "ext-3"',
  'externalId pr',
  'id eq "c2"',
  'id gt "c2"',
  'meta.created gt "2025-02-15T00:00:00Z"',
  'meta.lastModified le "2025-03-01T00:00:00Z"',
  'meta.version eq "W/\\"3\\""',
  'meta.resourceType eq "course"',
  `schemas eq "${EXT.toUpperCase()}"`,
  'open eq true and (seats gt 10 or fee ge 100)',
  'not (tags eq "math") and displayName pr',
];

const SORTS = [
  'displayName',
  'code',
  'open',
  'seats',
  'fee',
  'starts',
  'homepage',
  'tags',
  'teacher.display',
  'students',
  'students.display',
  `${EXT}:level`,
  `${EXT}:room`,
  'externalId',
  'id',
  'meta.created',
  'meta.lastModified',
];

describe.each(backends)(
  'the PostgreSQL resource store answers as the memory one on $name',
  ({ open }) => {
    let backend: Backend;
    const memory = new MemoryResourceStore();
    let store: PostgresResourceStore;

    beforeAll(async () => {
      backend = await open();
      const { executor, schema } = backend;
      store = new PostgresResourceStore({
        executor,
        schema,
        resourceType: 'Course',
        migrate: true,
      });
      for (const s of [memory, store])
        for (const r of SEED) await s.create(T, r, { uniqueKeys: {} });
      // Another tenant and another type in the same tables stay out of every answer.
      const other = new PostgresResourceStore({ executor, schema, resourceType: 'Other' });
      await store.create('elsewhere', course(6, { displayName: 'Algebra' }), { uniqueKeys: {} });
      await other.create(T, course(7, { displayName: 'Algebra' }), { uniqueKeys: {} });
    }, 60_000);
    afterAll(() => backend?.close());

    const ids = async (
      s: MemoryResourceStore | PostgresResourceStore,
      query: ResourceListQuery,
    ) => {
      const page = await s.list(T, query);
      return { total: page.totalResults, ids: page.resources.map((r) => r.id) };
    };

    it('reads back what was written, schemas and id first and meta last', async () => {
      const read = await store.get(T, 'c1');
      expect(read).toEqual(SEED[0]);
      const keys = Object.keys(read as object);
      expect([keys.slice(0, 2), keys.at(-1)]).toEqual([['schemas', 'id'], 'meta']);
    });

    it.each(FILTERS)('%s: the same resources', async (text) => {
      const filter = checkFilter(parseFilter(text), TYPE);
      expect(store.capabilities.supportsFilter?.(filter) ?? true).toBe(true);
      const query = { filter, startIndex: 1, count: 100, resourceType: TYPE };
      expect(await ids(store, query)).toEqual(await ids(memory, query));
    });

    it('finds something with most of the filters (the seed is not empty for them)', async () => {
      let found = 0;
      for (const text of FILTERS) {
        const filter = checkFilter(parseFilter(text), TYPE);
        const page = await store.list(T, { filter, startIndex: 1, count: 9, resourceType: TYPE });
        if (page.totalResults > 0 && page.totalResults < SEED.length) found += 1;
      }
      expect(found).toBeGreaterThan(FILTERS.length * 0.8);
    });

    it.each(SORTS)('sortBy %s: the same order both ways, by index and by keyset', async (text) => {
      const sortBy = checkSortBy(text, TYPE);
      expect(store.capabilities.supportsSort?.(sortBy)).toBe(true);
      for (const sortOrder of ['ascending', 'descending'] as const) {
        const query = { sortBy, sortOrder, startIndex: 1, count: 100, resourceType: TYPE };
        const expected = await ids(memory, query);
        expect(await ids(store, query)).toEqual(expected);
        const second = { ...query, startIndex: 2, count: 2 };
        expect(await ids(store, second)).toEqual(await ids(memory, second));
        // Two at a time by keyset, forward to the end.
        const seen: string[] = [];
        let from: ListPosition | undefined;
        for (let more = true; more;) {
          const seek = from === undefined ? {} : { from };
          const page = await store.list(T, { ...query, count: 2, seek });
          seen.push(...page.resources.map((r) => r.id));
          more = page.seek?.more === true;
          from = page.seek?.last;
        }
        expect(seen).toEqual(expected.ids);
      }
    });
  },
);
