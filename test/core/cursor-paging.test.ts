// RFC 9865 cursor paging over HTTP — the members a cursor page carries, the
// errors RFC 9865 §2.1 defines, the /ServiceProviderConfig pagination complex, and index paging
// beside it unchanged.
import { beforeAll, describe, expect, it } from 'vitest';
import type { UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { KEY_B, SEARCH, setupCursors } from './cursor-harness.js';

const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** What /ServiceProviderConfig says of index paging with the default options. */
const INDEX_PAGING = {
  index: true,
  defaultPaginationMethod: 'index',
  defaultPageSize: 50,
  maxPageSize: 100,
};

describe('cursor paging (RFC 9865)', () => {
  let clock = new Date('2026-11-24T08:00:00Z');
  const ctx = setupCursors({ now: () => clock });
  const names: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 7; i++) {
      const user = await ctx.createUser(`user${i}@example.org`, { displayName: `D${6 - i}` });
      names.push(user.userName);
    }
  });

  it('advertises both methods in /ServiceProviderConfig, index by default', async () => {
    const reply = await ctx.request('GET', '/ServiceProviderConfig');
    expect(reply.body.pagination).toEqual({ cursor: true, ...INDEX_PAGING, cursorTimeout: 3600 });
  });

  it('walks every user once with `?cursor`, nextCursor until the last page, no startIndex', async () => {
    const first = await ctx.request('GET', '/Users', { query: 'cursor&count=3' });
    expect(first.status).toBe(200);
    expect(first.body.schemas).toEqual([LIST_RESPONSE]);
    expect(first.body).not.toHaveProperty('startIndex');
    expect(first.body).not.toHaveProperty('previousCursor');
    expect(first.body).toMatchObject({ totalResults: 7, itemsPerPage: 3 });
    expect(first.body.nextCursor).toMatch(/^[A-Za-z0-9._~-]+$/);
    const pages = await ctx.walk('count=3');
    expect(pages.map((p) => p.body.itemsPerPage)).toEqual([3, 3, 1]);
    expect(pages.flatMap((p) => p.userNames)).toEqual(names);
    expect(pages[2]?.body).not.toHaveProperty('nextCursor');
    expect(pages[1]?.body.previousCursor).toEqual(expect.any(String));
    for (const page of pages) expect(page.body.totalResults).toBe(7);
  });

  it('goes back with previousCursor, and forward again from there', async () => {
    const pages = await ctx.walk('count=3');
    const back = await ctx.page('count=3', pages[2]?.body.previousCursor);
    expect(back.userNames).toEqual(names.slice(3, 6));
    const backAgain = await ctx.page('count=3', back.body.previousCursor);
    expect(backAgain.userNames).toEqual(names.slice(0, 3));
    // The first page has nothing before it: no previousCursor.
    expect(backAgain.body).not.toHaveProperty('previousCursor');
    const forward = await ctx.page('count=3', backAgain.body.nextCursor);
    expect(forward.userNames).toEqual(names.slice(3, 6));
  });

  it('takes the cursor in a SearchRequest body too', async () => {
    const body = (cursor: string) => ({
      schemas: [SEARCH],
      cursor,
      count: 4,
      sortBy: 'displayName',
    });
    const first = await ctx.request('POST', '/Users/.search', { body: body('') });
    expect(first.status).toBe(200);
    expect(first.body).not.toHaveProperty('startIndex');
    const second = await ctx.request('POST', '/Users/.search', {
      body: body(first.body.nextCursor),
    });
    const seen = [...first.body.Resources, ...second.body.Resources].map(
      (u: { userName: string }) => u.userName,
    );
    expect(seen).toEqual([...names].reverse());
    expect(second.body).not.toHaveProperty('nextCursor');
  });

  it('combines with a filter, sortBy and sortOrder', async () => {
    const query = `filter=${encodeURIComponent('displayName ne "D0"')}&sortBy=displayName&sortOrder=descending&count=2`;
    const pages = await ctx.walk(query);
    expect(pages.flatMap((p) => p.userNames)).toEqual(names.slice(0, 6));
    expect(pages[0]?.body.totalResults).toBe(6);
  });

  it('answers count=0 with totalResults alone and no cursor', async () => {
    const reply = await ctx.request('GET', '/Users', { query: 'cursor=&count=0' });
    expect(reply.body).toMatchObject({ totalResults: 7, itemsPerPage: 0, Resources: [] });
    expect(reply.body).not.toHaveProperty('nextCursor');
  });

  describe('refuses, as RFC 9865 §2.1 says', () => {
    let cursor = '';
    beforeAll(async () => {
      cursor = (await ctx.request('GET', '/Users', { query: 'cursor&count=2&sortBy=userName' }))
        .body.nextCursor;
    });
    const expectError = async (query: string, scimType: string, key?: string) => {
      const reply = await ctx.request('GET', '/Users', { query, ...(key ? { key } : {}) });
      expect([reply.status, reply.body.scimType], query).toEqual([400, scimType]);
      expect(reply.body.detail).toEqual(expect.any(String));
      return reply;
    };
    const q = (c: string) => `cursor=${encodeURIComponent(c)}&count=2&sortBy=userName`;

    it('a forged, changed, truncated or malformed cursor: invalidCursor', async () => {
      const [payload, mac] = cursor.split('.') as [string, string];
      const flip = (s: string, i: number) =>
        s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      for (const bad of [
        `${flip(payload, 3)}.${mac}`,
        `${payload}.${flip(mac, 2)}`,
        cursor.slice(0, -3),
        payload,
        'nonsense',
        `${cursor}.x`,
        'a b',
        '%00',
        'x'.repeat(5000),
        `${btoa('{"d":"f","c":2,"t":1}').replace(/=/g, '')}.AAAAAAAAAAAAAAAAAAAAAA`,
      ])
        await expectError(q(bad), 'invalidCursor');
    });

    it("another tenant's cursor: invalidCursor", async () => {
      await expectError(q(cursor), 'invalidCursor', KEY_B);
    });

    it('a cursor sent with another filter, sortBy or sortOrder: invalidCursor', async () => {
      await expectError(`cursor=${cursor}&count=2`, 'invalidCursor');
      await expectError(`${q(cursor)}&sortOrder=descending`, 'invalidCursor');
      await expectError(
        `${q(cursor)}&filter=${encodeURIComponent('userName pr')}`,
        'invalidCursor',
      );
    });

    it('a count above maxPageSize, or another count than the cursor was made with: invalidCount', async () => {
      await expectError('cursor&count=101', 'invalidCount');
      await expectError(`cursor=${cursor}&count=3&sortBy=userName`, 'invalidCount');
      await expectError(`cursor=${cursor}&sortBy=userName`, 'invalidCount');
    });

    it('a cursor older than cursorTimeout: expiredCursor', async () => {
      const saved = clock;
      try {
        clock = new Date(saved.getTime() + 3601_000);
        await expectError(q(cursor), 'expiredCursor');
        clock = new Date(saved.getTime() + 3599_000);
        expect((await ctx.request('GET', '/Users', { query: q(cursor) })).status).toBe(200);
      } finally {
        clock = saved;
      }
    });

    it('startIndex and cursor together: invalidValue', async () => {
      await expectError('cursor&startIndex=1', 'invalidValue');
    });

    it('a cursor that is not a string in a SearchRequest: invalidCursor', async () => {
      const reply = await ctx.request('POST', '/Users/.search', {
        body: { schemas: [SEARCH], cursor: 5 },
      });
      expect([reply.status, reply.body.scimType]).toEqual([400, 'invalidCursor']);
    });
  });

  it('leaves index paging as it was: startIndex, no cursors', async () => {
    const reply = await ctx.request('GET', '/Users', { query: 'startIndex=2&count=2' });
    expect(reply.body).toMatchObject({ totalResults: 7, itemsPerPage: 2, startIndex: 2 });
    expect(reply.body).not.toHaveProperty('nextCursor');
    const plain = await ctx.request('GET', '/Users', { query: 'count=1000' });
    expect(plain.body).toMatchObject({ startIndex: 1, itemsPerPage: 7 });
  });
});

describe('a store without keyset paging', () => {
  // A custom store that does not declare `keysetPaging`: the capabilities of the memory store
  // without it.
  const inner = new MemoryUserStore();
  const store: UserStore = Object.assign(Object.create(inner) as UserStore, {
    capabilities: { supportsSort: () => true },
  });
  const ctx = setupCursors({ store });

  it('is not advertised with cursors, and a cursor answers 400 invalidCursor', async () => {
    const spc = await ctx.request('GET', '/ServiceProviderConfig');
    expect(spc.body.pagination).toEqual({ cursor: false, ...INDEX_PAGING });
    const reply = await ctx.request('GET', '/Users', { query: 'cursor' });
    expect([reply.status, reply.body.scimType]).toEqual([400, 'invalidCursor']);
    expect(reply.body.detail).toMatch(/does not support cursor paging/);
  });
});

describe('cursors across instances', () => {
  const secret = 'a shared cursor secret of 32+ characters';
  const store = new MemoryUserStore();
  it('hold on another instance with the same cursorSecret, and are refused by one without', async () => {
    const a = setupCursors({ store, cursorSecret: secret });
    const b = setupCursors({ store, cursorSecret: secret });
    const c = setupCursors({ store });
    for (let i = 0; i < 3; i++) await a.createUser(`shared${i}@example.org`);
    const first = await a.request('GET', '/Users', { query: 'cursor&count=2' });
    const onB = await b.page('count=2', first.body.nextCursor);
    expect(onB.userNames).toEqual(['shared2@example.org']);
    const onC = await c.request('GET', '/Users', {
      query: `cursor=${first.body.nextCursor}&count=2`,
    });
    expect([onC.status, onC.body.scimType]).toEqual([400, 'invalidCursor']);
  });

  it('refuses a short cursorSecret at start', () => {
    expect(() => setupCursors({ store, cursorSecret: 'short' })).toThrow(/at least 32/);
  });
});
