// GET /Groups has every list feature of /Users, RFC 9865 cursor paging included. Walking every page while others create and delete groups never skips nor
// repeats a group that existed throughout, on the memory store, PGlite and the PostgreSQL
// server, in id order, sorted, and filtered by member.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupStore, UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { everyStore } from './every-store.js';
import { expectEachOnce, letter, SEARCH, setupCursors, setupCursorsOn } from './cursor-harness.js';

const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
let created = 0;

describe.each(everyStore)('cursor paging of groups on the $name store', ({ open }) => {
  let opened: Awaited<ReturnType<typeof open>>;
  beforeAll(async () => {
    opened = await open();
  }, 60_000);
  afterAll(() => opened.close());

  /** A service on the shared store, in a tenant of its own, paging /Groups. */
  const service = () => {
    const ctx = setupCursorsOn(opened.store, '/Groups');
    /** Creates `n` groups; every third has no externalId; members of the odd ones: `member`. */
    async function seed(n: number, member?: string): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        created += 1;
        const reply = await ctx.request('POST', '/Groups', {
          body: {
            schemas: [GROUP],
            displayName: `${letter(created)} group ${created}`,
            ...(i % 3 !== 0 && { externalId: `x${(created * 5) % 11}` }),
            ...(member && i % 2 === 1 && { members: [{ value: member }] }),
          },
        });
        expect(reply.status, JSON.stringify(reply.body)).toBe(201);
        ids.push(reply.body.id);
      }
      return ids;
    }
    return { ...ctx, seed };
  };

  it.each([
    ['id order', 'count=4'],
    ['displayName', 'count=4&sortBy=displayName'],
    ['externalId descending (some without one)', 'count=3&sortBy=externalId&sortOrder=descending'],
    ['meta.created, members left out', 'count=5&sortBy=meta.created&excludedAttributes=members'],
  ])(
    'walking forward in %s sees every group present throughout exactly once',
    async (_name, query) => {
      const ctx = service();
      const ids = await ctx.seed(18);
      const doomed = ids.filter((_, i) => i % 3 === 1);
      const stable = new Set(ids.filter((_, i) => i % 3 !== 1));
      const pages = await ctx.walk(query, async (index) => {
        // Between pages: delete two groups and create two, whose keys land before and after.
        for (const id of doomed.splice(0, 2))
          expect((await ctx.request('DELETE', `/Groups/${id}`)).status).toBe(204);
        await ctx.seed(2);
        expect(index).toBeLessThan(40);
      });
      expectEachOnce(pages, stable);
      expect(pages.length).toBeGreaterThan(2);
      for (const page of pages) expect(page.body).not.toHaveProperty('startIndex');
    },
    60_000,
  );

  it('walks the groups of one member (a filter the PostgreSQL store answers from its membership table) by cursor', async () => {
    const ctx = service();
    const user = await ctx.createUser(`member-${created}@example.org`);
    const ids = await ctx.seed(12, user.id);
    const held = ids.filter((_, i) => i % 2 === 1);
    const filter = encodeURIComponent(`members[value eq "${user.id}"]`);
    const pages = await ctx.walk(`count=2&sortBy=displayName&filter=${filter}`);
    expect(pages.flatMap((p) => p.ids).sort()).toEqual([...held].sort());
    for (const page of pages) expect(page.body.totalResults).toBe(held.length);
    // Members are shown unless left out: the member is on every group of the walk.
    for (const page of pages)
      for (const group of page.body.Resources)
        expect(group.members.map((m: { value: string }) => m.value)).toContain(user.id);
  }, 60_000);

  it('walking backward with previousCursor sees every group present throughout exactly once', async () => {
    const ctx = service();
    const ids = await ctx.seed(15);
    const query = 'count=3&sortBy=displayName&sortOrder=descending';
    const doomed = ids.filter((_, i) => i % 4 === 2);
    const stable = new Set(ids.filter((_, i) => i % 4 !== 2));
    const pages = await ctx.walkBack(query, async () => {
      for (const id of doomed.splice(0, 1)) await ctx.request('DELETE', `/Groups/${id}`);
      await ctx.seed(1);
    });
    expectEachOnce(pages, stable);
  }, 60_000);

  it('pages /Groups/.search by cursor as GET does, in the same id order as index paging', async () => {
    const ctx = service();
    const made = await ctx.seed(7);
    const pages = await ctx.walk('count=3');
    expect(pages.flatMap((p) => p.ids)).toEqual(made);
    const indexed = await ctx.request('GET', '/Groups', { query: 'startIndex=1&count=100' });
    expect(indexed.body.Resources.map((g: { id: string }) => g.id)).toEqual(made);
    const first = await ctx.request('POST', '/Groups/.search', {
      body: { schemas: [SEARCH], cursor: '', count: 3 },
    });
    expect(first.status).toBe(200);
    expect(first.body.Resources.map((g: { id: string }) => g.id)).toEqual(made.slice(0, 3));
    const second = await ctx.request('POST', '/Groups/.search', {
      body: { schemas: [SEARCH], cursor: first.body.nextCursor, count: 3 },
    });
    expect(second.body.Resources.map((g: { id: string }) => g.id)).toEqual(made.slice(3, 6));
  }, 60_000);

  it('refuses a /Users cursor on /Groups, and a cursor of another query, with 400 invalidCursor', async () => {
    const ctx = service();
    await ctx.seed(3);
    await ctx.createUser(`cursor-user@example.org`);
    await ctx.createUser(`cursor-user2@example.org`);
    const users = await ctx.request('GET', '/Users', { query: 'cursor&count=1' });
    const onGroups = await ctx.request('GET', '/Groups', {
      query: `cursor=${users.body.nextCursor}&count=1`,
    });
    expect([onGroups.status, onGroups.body.scimType]).toEqual([400, 'invalidCursor']);
    const sorted = await ctx.page('count=1&sortBy=displayName');
    const otherQuery = await ctx.request('GET', '/Groups', {
      query: `cursor=${sorted.body.nextCursor}&count=1`,
    });
    expect([otherQuery.status, otherQuery.body.scimType]).toEqual([400, 'invalidCursor']);
  }, 60_000);
});

describe('a group store without keyset paging', () => {
  // A custom store whose groups do not declare `keysetPaging`: the users page by cursor, the
  // groups answer a cursor with 400 invalidCursor (no store call is made).
  const inner = new MemoryUserStore();
  const groups = inner.groups as GroupStore;
  const store: UserStore = Object.assign(Object.create(inner) as UserStore, {
    groups: Object.assign(Object.create(groups) as GroupStore, {
      capabilities: { ...groups.capabilities, keysetPaging: false },
    }),
  });
  const ctx = setupCursors({ store });

  it('answers a cursor on /Groups with 400 invalidCursor', async () => {
    const reply = await ctx.request('GET', '/Groups', { query: 'cursor' });
    expect([reply.status, reply.body.scimType]).toEqual([400, 'invalidCursor']);
    expect(reply.body.detail).toMatch(/does not support cursor paging/);
  });
});
