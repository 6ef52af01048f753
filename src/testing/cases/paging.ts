import type { ScimUser } from '../../schema/user-resource.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';

/** Creates `n` users out of id order (as clocks and retries allow) and returns them by id. */
async function seed({ store, tenant, users }: StoreTestContext, n: number): Promise<ScimUser[]> {
  const made = Array.from({ length: n }, () => users.make());
  const shuffled = made.map((user, i) => ({ user, key: (i * 7 + 3) % n }));
  shuffled.sort((a, b) => a.key - b.key);
  for (const { user } of shuffled) await store.create(tenant, user);
  return made;
}

const idsOf = (list: readonly ScimUser[]) => list.map((user) => user.id);

/** Pages are slices of the users ordered by id, with an exact totalResults. */
export const pagingCases: readonly StoreConformanceCase[] = [
  {
    id: 'list.ordered-by-id',
    title: 'list returns users ordered by id, whatever the order they were created in',
    async run(ctx) {
      const all = await seed(ctx, 6);
      const page = await ctx.store.list(ctx.tenant, { startIndex: 1, count: 100 });
      check.equal(page.totalResults, 6, 'totalResults');
      check.deepEqual(idsOf(page.resources), idsOf(all), 'ids listed');
      check.sameUsers(page.resources, all, 'users listed');
    },
  },
  {
    id: 'list.pages-cover-every-user-once',
    title: 'pages of count C at startIndex 1, 1+C, ... cover every user once, in id order',
    async run(ctx) {
      const all = await seed(ctx, 7);
      const seen: string[] = [];
      for (const [startIndex, size] of [
        [1, 3],
        [4, 3],
        [7, 1],
      ] as const) {
        const page = await ctx.store.list(ctx.tenant, { startIndex, count: 3 });
        check.equal(page.totalResults, 7, `totalResults at startIndex ${startIndex}`);
        check.equal(page.resources.length, size, `users at startIndex ${startIndex}`);
        seen.push(...idsOf(page.resources));
      }
      check.deepEqual(seen, idsOf(all), 'ids over all pages');
      const middle = await ctx.store.list(ctx.tenant, { startIndex: 3, count: 2 });
      check.deepEqual(
        idsOf(middle.resources),
        idsOf(all.slice(2, 4)),
        'ids at startIndex 3, count 2',
      );
    },
  },
  {
    id: 'list.past-the-end-is-empty',
    title: 'a page that starts after the last user is empty and still counts every user',
    async run(ctx) {
      await seed(ctx, 4);
      for (const startIndex of [5, 50]) {
        const page = await ctx.store.list(ctx.tenant, { startIndex, count: 10 });
        check.deepEqual(
          page,
          { totalResults: 4, resources: [] },
          `page at startIndex ${startIndex}`,
        );
      }
    },
  },
  {
    id: 'list.count-zero',
    title: 'count 0 returns no users and the exact totalResults',
    async run(ctx) {
      await seed(ctx, 3);
      const page = await ctx.store.list(ctx.tenant, { startIndex: 1, count: 0 });
      check.deepEqual(page, { totalResults: 3, resources: [] }, 'page of count 0');
    },
  },
  {
    id: 'list.empty-store',
    title: 'list of a tenant with no users has totalResults 0 and no resources',
    async run({ store, tenant }) {
      check.deepEqual(
        await store.list(tenant, { startIndex: 1, count: 50 }),
        { totalResults: 0, resources: [] },
        'empty list',
      );
    },
  },
  {
    id: 'list.follows-writes',
    title: 'list reflects deletes, replaces and late creates, still in id order',
    async run(ctx) {
      const { store, tenant, users } = ctx;
      const [a, b, c, d] = await seed(ctx, 4);
      check.ok(a && b && c && d, 'seeding failed');
      await store.delete(tenant, b.id);
      const renamed = users.next(c, { displayName: 'Renamed' });
      await store.replace(tenant, renamed, { expectedVersion: c.meta.version });
      // An id that sorts before the others as a plain string ("-" < "0"), as a clock step back gives.
      const early = users.make({ id: `${a.id.slice(0, -1)}-` });
      await store.create(tenant, early);
      const page = await store.list(tenant, { startIndex: 1, count: 10 });
      check.equal(page.totalResults, 4, 'totalResults');
      check.sameUsers(page.resources, [early, a, renamed, d], 'users listed');
    },
  },
];
