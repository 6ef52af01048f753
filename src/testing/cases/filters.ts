import type { CompareOperator, Filter } from '../../filter/ast.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { compare, eq, idsMatching, supports } from './filter-builders.js';

/** Skips the case unless the store declares it can answer `filter`. */
function requireFilter({ store, skip }: StoreTestContext, filter: Filter): void {
  if (!supports(store, filter))
    skip(`the store does not declare support for ${JSON.stringify(filter)}`);
}

/** Checks that `filter` finds exactly `expected`, in id order. */
async function expectMatches(
  ctx: StoreTestContext,
  filter: Filter,
  expected: readonly ScimUser[],
  what: string,
) {
  const found = await idsMatching(ctx.store, ctx.tenant, filter);
  const ids = expected.map((user) => user.id).sort();
  check.deepEqual(found, { totalResults: ids.length, ids }, what);
}

async function createAll(ctx: StoreTestContext, users: readonly ScimUser[]) {
  for (const user of users) await ctx.store.create(ctx.tenant, user);
}

/** The equality filters every IdP sends, answered from indexes. */
const indexedCases: StoreConformanceCase[] = [
  {
    id: 'filter.username-eq-ignores-case',
    title: 'userName eq finds the user whatever the letter case of either side (required)',
    async run(ctx) {
      const filter = eq('userName', 'ADA.lovelace@example.ORG');
      check.ok(
        supports(ctx.store, filter),
        'userName eq is required by the SCIM contract, but the store does not declare it',
      );
      const ada = ctx.users.make({ userName: 'Ada.Lovelace@Example.org' });
      await createAll(ctx, [ctx.users.make(), ada, ctx.users.make()]);
      await expectMatches(ctx, filter, [ada], 'userName eq in another case');
      await expectMatches(
        ctx,
        eq('userName', '0f8fad5b-d9cb-469f-a165-70867728950e'),
        [],
        'userName eq a GUID',
      );
      const page = await idsMatching(ctx.store, ctx.tenant, filter, { startIndex: 2, count: 10 });
      check.deepEqual(page, { totalResults: 1, ids: [] }, 'userName eq at startIndex 2');
    },
  },
  {
    id: 'filter.externalid-eq-is-case-exact',
    title:
      'externalId eq matches exactly, letter case included, and finds every holder in id order',
    async run(ctx) {
      requireFilter(ctx, eq('externalId', 'AbC-1'));
      const holders = [
        ctx.users.make({ externalId: 'AbC-1' }),
        ctx.users.make({ externalId: 'AbC-1' }),
      ];
      const others = [ctx.users.make({ externalId: 'abc-1' }), ctx.users.make()];
      await createAll(ctx, [...holders].reverse().concat(others));
      await expectMatches(ctx, eq('externalId', 'AbC-1'), holders, 'externalId eq');
      await expectMatches(ctx, eq('externalId', 'ABC-1'), [], 'externalId eq in another case');
      const page = await idsMatching(ctx.store, ctx.tenant, eq('externalId', 'AbC-1'), {
        startIndex: 2,
        count: 5,
      });
      check.deepEqual(
        page,
        { totalResults: 2, ids: [holders[1]?.id] },
        'externalId eq at startIndex 2',
      );
    },
  },
  {
    id: 'filter.id-eq',
    title: 'id eq finds the one user with that id',
    async run(ctx) {
      requireFilter(ctx, eq('id', 'x'));
      const target = ctx.users.make();
      await createAll(ctx, [ctx.users.make(), target]);
      await expectMatches(ctx, eq('id', target.id), [target], 'id eq');
      await expectMatches(ctx, eq('id', 'no-such-id'), [], 'id eq an unknown id');
    },
  },
  {
    id: 'filter.and-of-equalities',
    title: 'userName eq ... and externalId eq ... finds the user only when both hold',
    async run(ctx) {
      const both = (externalId: string): Filter => ({
        kind: 'and',
        left: eq('userName', 'ada@example.org'),
        right: eq('externalId', externalId),
      });
      requireFilter(ctx, both('e'));
      const ada = ctx.users.make({ userName: 'ada@example.org', externalId: 'e-ada' });
      await createAll(ctx, [ada, ctx.users.make({ externalId: 'e-other' })]);
      await expectMatches(ctx, both('e-ada'), [ada], 'matching and');
      await expectMatches(ctx, both('e-other'), [], 'and with one side false');
    },
  },
  {
    id: 'filter.follows-writes',
    title: 'after a rename, a new externalId or a delete, the filters find the new state only',
    async run(ctx) {
      const { store, tenant, users } = ctx;
      const ada = users.make({ userName: 'ada@example.org', externalId: 'e-old' });
      await store.create(tenant, ada);
      const next = users.next(ada, { userName: 'ada.k@example.org', externalId: 'e-new' });
      await store.replace(tenant, next, { expectedVersion: ada.meta.version });
      await expectMatches(ctx, eq('userName', 'ada@example.org'), [], 'old userName');
      await expectMatches(ctx, eq('userName', 'Ada.K@example.org'), [next], 'new userName');
      if (supports(store, eq('externalId', 'e'))) {
        await expectMatches(ctx, eq('externalId', 'e-old'), [], 'old externalId');
        await expectMatches(ctx, eq('externalId', 'e-new'), [next], 'new externalId');
      }
      await store.delete(tenant, ada.id);
      await expectMatches(ctx, eq('userName', 'ada.k@example.org'), [], 'userName after delete');
      if (supports(store, eq('externalId', 'e')))
        await expectMatches(ctx, eq('externalId', 'e-new'), [], 'externalId after delete');
    },
  },
];

/** The same rule for non-ASCII userNames: Unicode simple case folding after NFC. */
const unicodeCases: StoreConformanceCase[] = [
  {
    id: 'filter.username-eq-unicode-case',
    title:
      'userName eq finds a non-ASCII userName by itself and by every case and normal form of it, and nothing else (required)',
    async run(ctx) {
      const unal = ctx.users.make({ userName: 'Ünal@example.org' });
      const emile = ctx.users.make({ userName: 'e\u0301mile@example.org' });
      const sisyphus = ctx.users.make({ userName: 'Σίσυφος@example.org' });
      const strasse = ctx.users.make({ userName: 'straße@example.org' });
      await createAll(ctx, [unal, emile, sisyphus, strasse, ctx.users.make()]);
      const finds = async (value: string, expected: ScimUser[]) =>
        expectMatches(ctx, eq('userName', value), expected, `userName eq ${JSON.stringify(value)}`);
      // An IdP's "find, else create" loop starts with the userName exactly as it sent it.
      for (const user of [unal, emile, sisyphus, strasse]) await finds(user.userName, [user]);
      await finds('ünal@EXAMPLE.org', [unal]);
      await finds('U\u0308NAL@example.org', [unal]);
      await finds('Émile@example.org', [emile]);
      await finds('ÉMILE@EXAMPLE.ORG', [emile]);
      await finds('ΣΊΣΥΦΟΣ@example.org', [sisyphus]);
      await finds('σίσυφοσ@example.org', [sisyphus]);
      await finds('STRAẞE@example.org', [strasse]);
      // Different letters stay different: no accent stripping, ß is not ss.
      await finds('Unal@example.org', []);
      await finds('emile@example.org', []);
      await finds('strasse@example.org', []);
    },
  },
  {
    id: 'filter.username-sw-co-ew-unicode-case',
    title: 'userName sw, co and ew compare with the same Unicode folding as eq',
    async run(ctx) {
      const tests: [CompareOperator, string][] = [
        ['sw', 'E\u0301MI'],
        ['co', 'ΊΣΥΦ'],
        ['ew', 'ΟΣ@EXAMPLE.ORG'],
      ];
      for (const [op, value] of tests) requireFilter(ctx, compare('userName', op, value));
      const emile = ctx.users.make({ userName: 'Émile@example.org' });
      const sisyphus = ctx.users.make({ userName: 'σίσυφος@example.org' });
      await createAll(ctx, [emile, sisyphus, ctx.users.make()]);
      const [sw, co, ew] = tests.map(([op, value]) => compare('userName', op, value)) as [
        Filter,
        Filter,
        Filter,
      ];
      await expectMatches(ctx, sw, [emile], 'userName sw with a decomposed accent');
      await expectMatches(ctx, co, [sisyphus], 'userName co in capitals');
      await expectMatches(ctx, ew, [sisyphus], 'userName ew with a capital sigma');
    },
  },
];

/** Builds a case for a filter form beyond the indexed equalities; it runs only when declared. */
function optional(
  id: string,
  title: string,
  filter: Filter,
  pick: (users: ScimUser[]) => ScimUser[],
): StoreConformanceCase {
  return {
    id,
    title,
    async run(ctx) {
      requireFilter(ctx, filter);
      const { users } = ctx;
      const all = [
        users.make({
          userName: 'ada@school.example',
          active: true,
          externalId: 'e-1',
          name: { givenName: 'Ada', familyName: 'Lovelace' },
        }),
        users.make({
          userName: 'grace@school.example',
          active: false,
          name: { givenName: 'Grace', familyName: 'Hopper' },
        }),
        users.make({
          userName: 'alan@home.example',
          active: true,
          name: { givenName: 'Alan', familyName: 'Turing' },
          emails: [{ value: 'alan@home.example', type: 'home' }],
        }),
      ];
      // Created in reverse id order: results must still come ordered by id.
      await createAll(ctx, [...all].reverse());
      await expectMatches(ctx, filter, pick(all), id);
    },
  };
}

const at =
  (...indexes: number[]) =>
  (users: ScimUser[]) =>
    indexes.flatMap((i) => (users[i] ? [users[i]] : []));

/** Every other filter form, each run only when the store declares it. */
const optionalCases: StoreConformanceCase[] = [
  optional(
    'filter.boolean-eq',
    'active eq true finds the active users',
    eq('active', true),
    at(0, 2),
  ),
  optional(
    'filter.username-sw-ignores-case',
    'userName sw is case-insensitive',
    compare('userName', 'sw', 'GRACE@'),
    at(1),
  ),
  optional(
    'filter.sub-attribute-co',
    'name.familyName co finds a substring, ignoring case',
    compare('name.familyName', 'co', 'OVEL'),
    at(0),
  ),
  optional(
    'filter.present',
    'externalId pr finds the users that have one',
    { kind: 'present', path: { attribute: 'externalId' } },
    at(0),
  ),
  optional(
    'filter.or',
    'or finds the users matching either side, in id order',
    {
      kind: 'or',
      left: eq('userName', 'alan@home.example'),
      right: eq('userName', 'ada@school.example'),
    },
    at(0, 2),
  ),
  optional(
    'filter.not',
    'not negates its filter',
    { kind: 'not', filter: eq('active', true) },
    at(1),
  ),
  optional(
    'filter.and-with-other-form',
    'userName eq ... and active eq true combines an index with another form',
    { kind: 'and', left: eq('userName', 'grace@school.example'), right: eq('active', true) },
    at(),
  ),
  optional(
    'filter.value-path',
    'emails[type eq "home"] finds users with a matching email',
    { kind: 'valuePath', path: { attribute: 'emails' }, filter: eq('type', 'home') },
    at(2),
  ),
];

/** Filters: the required `userName eq`, the indexed equalities, and every other declared form. */
export const filterCases: readonly StoreConformanceCase[] = [
  ...indexedCases,
  ...unicodeCases,
  ...optionalCases,
];
