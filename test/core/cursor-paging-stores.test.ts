// Cursor pages are keyset pages, so walking every page while other clients
// create and delete users never skips nor repeats a user that existed throughout — on the
// memory store, PGlite and the PostgreSQL server, in id order and sorted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyStore } from './every-store.js';
import { expectEachOnce, letter, setupCursorsOn } from './cursor-harness.js';

let newUsers = 0;

/** The orders a walk is tried in; each `[name, query]`. */
const ORDERS: readonly (readonly [string, string])[] = [
  ['id order', 'count=4'],
  ['userName', 'count=4&sortBy=userName'],
  ['displayName (some without one) ascending', 'count=4&sortBy=displayName'],
  ['displayName descending', 'count=4&sortBy=displayName&sortOrder=descending'],
  ['a filter and a sort', `count=3&sortBy=title&filter=${encodeURIComponent('userName sw "s"')}`],
];

describe.each(everyStore)('cursor paging on the $name store', ({ open }) => {
  let opened: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    opened = await open();
  }, 60_000);
  afterAll(() => opened.close());

  /** A service on the shared store, in a tenant of its own. */
  const service = () => setupCursorsOn(opened.store);

  /** Creates `n` users; every third has no displayName and every fourth no title. */
  async function seed(ctx: ReturnType<typeof service>, prefix: string, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const extra: Record<string, unknown> = {};
      if (i % 3 !== 0) extra.displayName = `${letter(i + 3)} ${prefix}${i}`;
      if (i % 4 !== 0) extra.title = `T${(i * 5) % 7}`;
      // New users start with any letter, so they land before and after the place in the
      // userName order; the seeded ones all start with "s".
      const userName =
        prefix === 'new' ? `${letter((newUsers += 1))}new${newUsers}` : `s${prefix}${i}`;
      const user = await ctx.createUser(`${userName}@example.org`, extra);
      ids.push(user.id);
    }
    return ids;
  }

  it.each(ORDERS)(
    'walking forward in %s sees every user present throughout exactly once',
    async (_name, query) => {
      const ctx = service();
      const ids = await seed(ctx, 'old', 24);
      // The users deleted during the walk (one in three); the others stay throughout.
      const doomed = ids.filter((_, i) => i % 3 === 1);
      const stable = new Set(ids.filter((_, i) => i % 3 !== 1));
      let created = 0;
      const pages = await ctx.walk(query, async (index) => {
        // Between pages: delete two users and create two, whose keys land before and after.
        for (const id of doomed.splice(0, 2)) {
          expect((await ctx.request('DELETE', `/Users/${id}`)).status).toBe(204);
        }
        await seed(ctx, 'new', 2).then((made) => (created += made.length));
        expect(index).toBeLessThan(40);
      });
      expectEachOnce(pages, stable);
      expect(created).toBeGreaterThan(0);
    },
    60_000,
  );

  it('walking backward with previousCursor sees every user present throughout exactly once', async () => {
    const ctx = service();
    const ids = await seed(ctx, 'old', 20);
    const query = 'count=3&sortBy=displayName';
    // Find the last page, then go back from it while others write.
    const doomed = ids.filter((_, i) => i % 4 === 2);
    const stable = new Set(ids.filter((_, i) => i % 4 !== 2));
    const pages = await ctx.walkBack(query, async () => {
      for (const id of doomed.splice(0, 1)) await ctx.request('DELETE', `/Users/${id}`);
      await seed(ctx, 'new', 1);
    });
    expectEachOnce(pages, stable);
  }, 60_000);

  it('cursor pages in id order list the same users as index paging', async () => {
    const ctx = service();
    const made = await seed(ctx, 'bulk', 30);
    const pages = await ctx.walk('count=7');
    expect(pages.flatMap((p) => p.body.Resources.map((u: { id: string }) => u.id))).toEqual(made);
    const indexed = await ctx.request('GET', '/Users', { query: 'startIndex=1&count=100' });
    expect(indexed.body.Resources.map((u: { id: string }) => u.id)).toEqual(made);
  }, 60_000);
});
