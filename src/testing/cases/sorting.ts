import type { AttributePath } from '../../filter/ast.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase, StoreTestContext } from '../types.js';
import { eq } from './filter-builders.js';

/** Skips the case unless the store declares it can sort by `path`. */
function requireSort({ store, skip }: StoreTestContext, path: AttributePath): void {
  if (!store.capabilities?.supportsSort?.(path)) {
    skip(`the store does not declare sorting by ${JSON.stringify(path)}`);
  }
}

/** Creates users in reverse id order and returns them in id order. */
async function createReversed(ctx: StoreTestContext, made: ScimUser[]): Promise<ScimUser[]> {
  for (const user of [...made].reverse()) await ctx.store.create(ctx.tenant, user);
  return made;
}

const ids = (users: readonly (ScimUser | undefined)[]) => users.map((user) => user?.id);
const userName: AttributePath = { attribute: 'userName' };
const externalId: AttributePath = { attribute: 'externalId' };

/** `sortBy` / `sortOrder`, run only for the attributes the store declares. */
export const sortingCases: readonly StoreConformanceCase[] = [
  {
    id: 'sort.username-ignores-case',
    title: 'sortBy userName orders without regard to letter case, ascending and descending',
    async run(ctx) {
      requireSort(ctx, userName);
      const [c, a, b] = await createReversed(ctx, [
        ctx.users.make({ userName: 'carol@example.org' }),
        ctx.users.make({ userName: 'Alice@example.org' }),
        ctx.users.make({ userName: 'bob@example.org' }),
      ]);
      const up = await ctx.store.list(ctx.tenant, { startIndex: 1, count: 10, sortBy: userName });
      check.deepEqual(ids(up.resources), ids([a, b, c]), 'ascending');
      const down = await ctx.store.list(ctx.tenant, {
        startIndex: 1,
        count: 10,
        sortBy: userName,
        sortOrder: 'descending',
      });
      check.deepEqual(ids(down.resources), ids([c, b, a]), 'descending');
      check.equal(down.totalResults, 3, 'totalResults');
    },
  },
  {
    id: 'sort.missing-values-last',
    title: 'users without a value sort last ascending and first descending',
    async run(ctx) {
      requireSort(ctx, externalId);
      const [none, z, a] = await createReversed(ctx, [
        ctx.users.make(),
        ctx.users.make({ externalId: 'z-1' }),
        ctx.users.make({ externalId: 'a-1' }),
      ]);
      const up = await ctx.store.list(ctx.tenant, { startIndex: 1, count: 10, sortBy: externalId });
      check.deepEqual(ids(up.resources), ids([a, z, none]), 'ascending');
      const down = await ctx.store.list(ctx.tenant, {
        startIndex: 1,
        count: 10,
        sortBy: externalId,
        sortOrder: 'descending',
      });
      check.deepEqual(ids(down.resources), ids([none, z, a]), 'descending');
    },
  },
  {
    id: 'sort.ties-by-id-across-pages',
    title: 'ties are broken by id, so pages of a sorted list cover every user once',
    async run(ctx) {
      requireSort(ctx, externalId);
      const made = [1, 2, 3, 4, 5].map((n) =>
        ctx.users.make({ externalId: n % 2 ? 'odd' : 'even' }),
      );
      await createReversed(ctx, made);
      const seen: (string | undefined)[] = [];
      for (const startIndex of [1, 3, 5]) {
        const page = await ctx.store.list(ctx.tenant, { startIndex, count: 2, sortBy: externalId });
        check.equal(page.totalResults, 5, `totalResults at startIndex ${startIndex}`);
        seen.push(...ids(page.resources));
      }
      const even = made.filter((u) => u.externalId === 'even');
      const odd = made.filter((u) => u.externalId === 'odd');
      check.deepEqual(seen, ids([...even, ...odd]), 'ids over all pages');
    },
  },
  {
    id: 'sort.with-filter',
    title: 'a filter and a sort together sort only the matches',
    async run(ctx) {
      requireSort(ctx, userName);
      const [x, y] = await createReversed(ctx, [
        ctx.users.make({ userName: 'xavier@example.org', externalId: 'team' }),
        ctx.users.make({ userName: 'yvonne@example.org', externalId: 'team' }),
        ctx.users.make({ userName: 'zed@example.org' }),
      ]);
      const page = await ctx.store.list(ctx.tenant, {
        startIndex: 1,
        count: 10,
        filter: eq('externalId', 'team'),
        sortBy: userName,
        sortOrder: 'descending',
      });
      check.deepEqual(
        { total: page.totalResults, ids: ids(page.resources) },
        { total: 2, ids: ids([y, x]) },
        'page',
      );
    },
  },
];
