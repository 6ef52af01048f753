import type {
  ListQuery,
  ListSeek,
  ListSeekResult,
  StoreCapabilities,
} from '../../contracts/store-query.js';
import type { AttributePath } from '../../filter/ast.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { compare } from './filter-builders.js';

/** A resource a keyset case pages through: a user or a group. */
interface Keyed {
  readonly id: string;
}

/** One keyset page of resources `R`, as a store's `list` answers it. */
interface KeysetPage<R extends Keyed> {
  readonly totalResults: number;
  readonly resources: readonly R[];
  readonly seek?: ListSeekResult;
}

/**
 * What the keyset cases page through, for one case: the store's users or its groups.
 *
 * @internal
 */
export interface KeysetSubject<R extends Keyed> {
  /** What `list` declares (`keysetPaging`, `supportsSort`). */
  readonly capabilities: StoreCapabilities | undefined;
  /** Returns a new valid resource with the next (time-ordered) id. */
  make(overrides?: { id?: string; externalId?: string }): R;
  /** Stores a resource in the case's tenant. */
  create(resource: R): Promise<void>;
  /** Deletes a resource of the case's tenant. */
  delete(id: string): Promise<unknown>;
  /** Lists the case's tenant. */
  list(query: ListQuery): Promise<KeysetPage<R>>;
}

type Query = Omit<ListQuery, 'startIndex' | 'seek'>;

const ids = (resources: readonly (Keyed | undefined)[]) => resources.map((r) => r?.id);
const externalId: AttributePath = { attribute: 'externalId' };

/**
 * Follows `seek.last` from the first page until `more` is false; returns every page's ids.
 *
 * @internal
 */
export async function walkPages(
  read: (seek: ListSeek) => Promise<KeysetPage<Keyed>>,
): Promise<string[][]> {
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

/** A subject opened for a case, with its keyset helpers; skips unless it declares keysetPaging. */
function keyset<R extends Keyed>(ctx: StoreTestContext, subject: KeysetSubject<R>) {
  if (subject.capabilities?.keysetPaging !== true)
    ctx.skip('the store does not declare keysetPaging');
  const page = (query: Query, seek: ListSeek) => subject.list({ ...query, startIndex: 1, seek });
  return {
    page,
    walk: (query: Query) => walkPages((seek) => page(query, seek)),
    /** Creates `made` in reverse id order (as clocks and retries allow) and returns it. */
    async createReversed(made: R[]): Promise<R[]> {
      for (const resource of [...made].reverse()) await subject.create(resource);
      return made;
    },
  };
}

/**
 * Builds the keyset cases every pageable resource is held to (ids `${prefix}...`), for users
 * and for groups: a walk in id order, a place that survives writes, backward pages, and sorted
 * pages with missing values.
 *
 * @internal
 */
export function keysetCases<R extends Keyed>(
  prefix: string,
  noun: string,
  open: (ctx: StoreTestContext) => KeysetSubject<R>,
): StoreConformanceCase[] {
  return [
    {
      id: `${prefix}walks-in-id-order`,
      title: `keyset pages from the first page on cover every one of the ${noun} once, in id order`,
      async run(ctx) {
        const subject = open(ctx);
        const { page, walk, createReversed } = keyset(ctx, subject);
        const all = await createReversed(Array.from({ length: 7 }, () => subject.make()));
        const first = await page({ count: 3 }, {});
        check.equal(first.totalResults, 7, 'totalResults of a keyset page');
        check.deepEqual(first.seek?.first, { id: all[0]?.id }, 'seek.first in id order');
        check.deepEqual(first.seek?.last, { id: all[2]?.id }, 'seek.last in id order');
        check.deepEqual(
          await walk({ count: 3 }),
          [ids(all.slice(0, 3)), ids(all.slice(3, 6)), ids(all.slice(6))],
          'pages',
        );
      },
    },
    {
      id: `${prefix}place-survives-writes`,
      title: `a page after a place continues after it when that one and other ${noun} are gone or new`,
      async run(ctx) {
        const subject = open(ctx);
        const { page, createReversed } = keyset(ctx, subject);
        const [a, b, c, d, e] = await createReversed(
          Array.from({ length: 5 }, () => subject.make()),
        );
        check.ok(a && b && c && d && e, 'seeding failed');
        const first = await page({ count: 2 }, {});
        check.ok(first.seek?.last, 'seek.last');
        await subject.delete(b.id); // the place itself
        await subject.delete(d.id);
        // Before the place as a string ("-" < "0"), as a clock step back gives: not on later pages.
        await subject.create(subject.make({ id: `${a.id.slice(0, -1)}-` }));
        const late = subject.make();
        await subject.create(late);
        const next = await page({ count: 10 }, { from: first.seek.last });
        check.deepEqual(ids(next.resources), ids([c, e, late]), `${noun} after the place`);
        check.equal(next.seek?.more, false, 'more');
      },
    },
    {
      id: `${prefix}backward`,
      title: `a backward page holds the ${noun} right before the place, in order; without one, the last page`,
      async run(ctx) {
        const subject = open(ctx);
        const { page, createReversed } = keyset(ctx, subject);
        const all = await createReversed(Array.from({ length: 6 }, () => subject.make()));
        const place = { id: all[4]?.id as string };
        const before = await page({ count: 3 }, { from: place, direction: 'backward' });
        check.deepEqual(ids(before.resources), ids(all.slice(1, 4)), 'the page before');
        check.equal(before.seek?.more, true, 'more before it');
        const start = await page(
          { count: 3 },
          { from: { id: all[2]?.id as string }, direction: 'backward' },
        );
        check.deepEqual(ids(start.resources), ids(all.slice(0, 2)), `the first ${noun}`);
        check.equal(start.seek?.more, false, 'nothing before the first one');
        const last = await page({ count: 4 }, { direction: 'backward' });
        check.deepEqual(ids(last.resources), ids(all.slice(2)), 'the last page');
      },
    },
    {
      id: `${prefix}sorted-with-missing-values`,
      title: `keyset pages follow sortBy both ways, ${noun} without a value last ascending and first descending`,
      async run(ctx) {
        const subject = open(ctx);
        const { page, walk, createReversed } = keyset(ctx, subject);
        if (!subject.capabilities?.supportsSort?.(externalId))
          ctx.skip('the store does not declare sorting by externalId');
        const [n1, z, a, n2, m] = await createReversed([
          subject.make(),
          subject.make({ externalId: 'z-1' }),
          subject.make({ externalId: 'a-1' }),
          subject.make(),
          subject.make({ externalId: 'm-1' }),
        ]);
        const up = await walk({ count: 2, sortBy: externalId });
        check.deepEqual(up.flat(), ids([a, m, z, n1, n2]), 'ascending');
        const down = await walk({ count: 2, sortBy: externalId, sortOrder: 'descending' });
        check.deepEqual(down.flat(), ids([n1, n2, z, m, a]), 'descending');
        const back = await page(
          { count: 2, sortBy: externalId },
          { from: { id: n1?.id as string }, direction: 'backward' },
        );
        check.deepEqual(ids(back.resources), ids([m, z]), 'backward from one without a value');
      },
    },
  ];
}

/** The users of the case's store, as the keyset cases page through them. */
const users = (ctx: StoreTestContext): KeysetSubject<ScimUser> => ({
  capabilities: ctx.store.capabilities,
  make: (overrides) => ctx.users.make(overrides),
  create: (user) => ctx.store.create(ctx.tenant, user),
  delete: (id) => ctx.store.delete(ctx.tenant, id),
  list: (query) => ctx.store.list(ctx.tenant, query),
});

/** Keyset paging (`ListQuery.seek`), for stores that declare `capabilities.keysetPaging`. */
export const keysetPagingCases: readonly StoreConformanceCase[] = [
  ...keysetCases('keyset.', 'users', users),
  {
    id: 'keyset.filtered-and-tenant-scoped',
    title:
      'keyset pages hold only matches of the filter, of the tenant, with the total of all matches',
    async run(ctx) {
      const { page, walk, createReversed } = keyset(ctx, users(ctx));
      const made = await createReversed(
        Array.from({ length: 6 }, (_, i) =>
          ctx.users.make({ title: i % 2 === 0 ? 'even' : 'odd' }),
        ),
      );
      await ctx.store.create(ctx.otherTenant, ctx.users.make({ title: 'even' }));
      const filter = compare('title', 'eq', 'even');
      const first = await page({ count: 2, filter }, {});
      check.equal(first.totalResults, 3, 'totalResults of the filter');
      const pages = await walk({ count: 2, filter });
      check.deepEqual(pages.flat(), ids(made.filter((_, i) => i % 2 === 0)), 'matches');
    },
  },
];
