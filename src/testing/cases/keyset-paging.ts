import type { ListQuery, ListSeek, ListSeekResult } from '../../contracts/user-store.js';
import type { AttributePath } from '../../filter/ast.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { compare } from './filter-builders.js';

/** Skips the case unless the store declares keyset paging (RFC 9865 cursors). */
function requireKeyset({ store, skip }: StoreTestContext): void {
  if (store.capabilities?.keysetPaging !== true) skip('the store does not declare keysetPaging');
}

/** Creates `made` in reverse id order (as clocks and retries allow) and returns it. */
async function createReversed(ctx: StoreTestContext, made: ScimUser[]): Promise<ScimUser[]> {
  for (const user of [...made].reverse()) await ctx.store.create(ctx.tenant, user);
  return made;
}

const ids = (users: readonly (ScimUser | undefined)[]) => users.map((user) => user?.id);
const externalId: AttributePath = { attribute: 'externalId' };

type Query = Omit<ListQuery, 'startIndex' | 'seek'>;

/** One keyset page of `query`. */
function page(ctx: StoreTestContext, query: Query, seek: ListSeek) {
  return ctx.store.list(ctx.tenant, { ...query, startIndex: 1, seek });
}

/** What a keyset walk reads: one page of users or of groups. */
type ReadPage = (seek: ListSeek) => Promise<{
  readonly resources: readonly { readonly id: string }[];
  readonly seek?: ListSeekResult;
}>;

/**
 * Follows `seek.last` from the first page until `more` is false; returns every page's ids.
 *
 * @internal
 */
export async function walkPages(read: ReadPage): Promise<string[][]> {
  const pages: string[][] = [];
  let seek: ListSeek = {};
  for (;;) {
    const result = await read(seek);
    check.ok(result.seek, 'a keyset page reports `seek`');
    pages.push(result.resources.map((r) => r.id));
    if (!result.seek.more) return pages;
    check.ok(result.seek.last, '`seek.last` of a page with more after it');
    check.ok(pages.length < 50, 'the walk ends');
    seek = { from: result.seek.last };
  }
}

/** Walks every keyset page of a user query. */
const walk = (ctx: StoreTestContext, query: Query) => walkPages((seek) => page(ctx, query, seek));

/** Keyset paging (`ListQuery.seek`), for stores that declare `capabilities.keysetPaging`. */
export const keysetPagingCases: readonly StoreConformanceCase[] = [
  {
    id: 'keyset.walks-in-id-order',
    title: 'keyset pages from the first page on cover every user once, in id order',
    async run(ctx) {
      requireKeyset(ctx);
      const all = await createReversed(
        ctx,
        Array.from({ length: 7 }, () => ctx.users.make()),
      );
      const first = await page(ctx, { count: 3 }, {});
      check.equal(first.totalResults, 7, 'totalResults of a keyset page');
      check.deepEqual(first.seek?.first, { id: all[0]?.id }, 'seek.first in id order');
      check.deepEqual(first.seek?.last, { id: all[2]?.id }, 'seek.last in id order');
      check.deepEqual(
        await walk(ctx, { count: 3 }),
        [ids(all.slice(0, 3)), ids(all.slice(3, 6)), ids(all.slice(6))],
        'pages',
      );
    },
  },
  {
    id: 'keyset.place-survives-writes',
    title: 'a page after a place continues after it when that user and others are gone or new',
    async run(ctx) {
      requireKeyset(ctx);
      const [a, b, c, d, e] = await createReversed(
        ctx,
        Array.from({ length: 5 }, () => ctx.users.make()),
      );
      check.ok(a && b && c && d && e, 'seeding failed');
      const first = await page(ctx, { count: 2 }, {});
      check.ok(first.seek?.last, 'seek.last');
      await ctx.store.delete(ctx.tenant, b.id); // the place itself
      await ctx.store.delete(ctx.tenant, d.id);
      // Before the place as a string ("-" < "0"), as a clock step back gives: not on later pages.
      await ctx.store.create(ctx.tenant, ctx.users.make({ id: `${a.id.slice(0, -1)}-` }));
      const late = ctx.users.make();
      await ctx.store.create(ctx.tenant, late);
      const next = await page(ctx, { count: 10 }, { from: first.seek.last });
      check.deepEqual(ids(next.resources), ids([c, e, late]), 'users after the place');
      check.equal(next.seek?.more, false, 'more');
    },
  },
  {
    id: 'keyset.backward',
    title:
      'a backward page holds the users right before the place, in order; without one, the last page',
    async run(ctx) {
      requireKeyset(ctx);
      const all = await createReversed(
        ctx,
        Array.from({ length: 6 }, () => ctx.users.make()),
      );
      const place = { id: all[4]?.id as string };
      const before = await page(ctx, { count: 3 }, { from: place, direction: 'backward' });
      check.deepEqual(ids(before.resources), ids(all.slice(1, 4)), 'the page before');
      check.equal(before.seek?.more, true, 'more before it');
      const start = await page(
        ctx,
        { count: 3 },
        { from: { id: all[2]?.id as string }, direction: 'backward' },
      );
      check.deepEqual(ids(start.resources), ids(all.slice(0, 2)), 'the first users');
      check.equal(start.seek?.more, false, 'nothing before the first user');
      const last = await page(ctx, { count: 4 }, { direction: 'backward' });
      check.deepEqual(ids(last.resources), ids(all.slice(2)), 'the last page');
    },
  },
  {
    id: 'keyset.sorted-with-missing-values',
    title:
      'keyset pages follow sortBy both ways, users without a value last ascending and first descending',
    async run(ctx) {
      requireKeyset(ctx);
      if (!ctx.store.capabilities?.supportsSort?.(externalId))
        ctx.skip('the store does not declare sorting by externalId');
      const [n1, z, a, n2, m] = await createReversed(ctx, [
        ctx.users.make(),
        ctx.users.make({ externalId: 'z-1' }),
        ctx.users.make({ externalId: 'a-1' }),
        ctx.users.make(),
        ctx.users.make({ externalId: 'm-1' }),
      ]);
      const up = await walk(ctx, { count: 2, sortBy: externalId });
      check.deepEqual(up.flat(), ids([a, m, z, n1, n2]), 'ascending');
      const down = await walk(ctx, { count: 2, sortBy: externalId, sortOrder: 'descending' });
      check.deepEqual(down.flat(), ids([n1, n2, z, m, a]), 'descending');
      const back = await page(
        ctx,
        { count: 2, sortBy: externalId },
        {
          from: { id: n1?.id as string },
          direction: 'backward',
        },
      );
      check.deepEqual(ids(back.resources), ids([m, z]), 'backward from a user without a value');
    },
  },
  {
    id: 'keyset.filtered-and-tenant-scoped',
    title:
      'keyset pages hold only matches of the filter, of the tenant, with the total of all matches',
    async run(ctx) {
      requireKeyset(ctx);
      const made = await createReversed(
        ctx,
        Array.from({ length: 6 }, (_, i) =>
          ctx.users.make({ title: i % 2 === 0 ? 'even' : 'odd' }),
        ),
      );
      await ctx.store.create(ctx.otherTenant, ctx.users.make({ title: 'even' }));
      const filter = compare('title', 'eq', 'even');
      const first = await page(ctx, { count: 2, filter }, {});
      check.equal(first.totalResults, 3, 'totalResults of the filter');
      const pages = await walk(ctx, { count: 2, filter });
      check.deepEqual(pages.flat(), ids(made.filter((_, i) => i % 2 === 0)), 'matches');
    },
  },
];
