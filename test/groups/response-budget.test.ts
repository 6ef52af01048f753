// The byte budget of answers (`maxResponseBytes`, `maxResponseBytesInFlight`) on groups large
// enough to exceed it: pages hold fewer groups and the client pages on, a group too large alone
// is refused with a way through, and concurrent answers share one bound. On every store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupStore, UserStore } from '../../src/index.js';
import { everyStore, type OpenedStore } from '../core/every-store.js';
import { KEY_B, setup, type Reply } from '../core/harness.js';

const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const SEARCH = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';
const BULK = 'urn:ietf:params:scim:api:messages:2.0:BulkRequest';
const MEMBERS = 40;
const GROUPS = 6;
// About two groups of 40 members per answer.
const BUDGET = 12 * 1024;

interface Group {
  id: string;
  displayName: string;
  members?: { value: string }[];
}

/**
 * A store whose members reads can be held, and which counts the members it hands out. It
 * leaves out the optional `firstMembers`, so every group's members come through `members`, one
 * group after another (the other tests read pages of groups through `firstMembers`).
 */
function watched(store: UserStore) {
  const groups = store.groups as GroupStore;
  let hold: { after: number; gate: Promise<void>; reached: () => void } | undefined;
  let calls = 0;
  let membersRead = 0;
  const wrappedGroups = new Proxy(groups, {
    get(target, name) {
      if (name === 'firstMembers') return undefined;
      if (name === 'members')
        return async (...args: Parameters<GroupStore['members']>) => {
          calls++;
          if (hold && calls === hold.after + 1) {
            hold.reached();
            await hold.gate;
          }
          const page = await target.members(...args);
          membersRead += page?.length ?? 0;
          return page;
        };
      if (name === 'list')
        return async (...args: Parameters<GroupStore['list']>) => {
          const page = await target.list(...args);
          for (const g of page.resources) membersRead += g.members?.length ?? 0;
          return page;
        };
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const wrapped = new Proxy(store, {
    get(target, name) {
      if (name === 'groups') return wrappedGroups;
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return {
    store: wrapped,
    /** Holds the members read after the next `after` ones; `held` resolves once it waits. */
    holdAfter(after: number) {
      let open!: () => void;
      let reached!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const held = new Promise<void>((resolve) => (reached = resolve));
      calls = 0;
      hold = { after, gate, reached };
      return {
        held,
        release: () => {
          hold = undefined;
          open();
        },
      };
    },
    /** Members handed out since the last call. */
    takeCount() {
      const n = membersRead;
      membersRead = 0;
      return n;
    },
  };
}

describe.each(everyStore)('the response byte budget on the $name store', ({ open }) => {
  let opened: OpenedStore;
  let groupIds: string[];
  let big: Group;
  beforeAll(async () => {
    opened = await open();
    const { request, createUser } = setup({ store: opened.store });
    const users: string[] = [];
    for (let i = 0; i < MEMBERS; i++)
      users.push((await createUser(`budget${i}@example.org`)).id as string);
    groupIds = [];
    for (let g = 0; g < GROUPS; g++) {
      const reply = await request('POST', '/Groups', {
        body: {
          schemas: [GROUP_SCHEMA],
          displayName: `Budget group ${g}`,
          members: users.map((value) => ({ value })),
        },
      });
      expect(reply.status).toBe(201);
      groupIds.push(reply.body.id);
    }
    // Tenant B: one group too large to answer whole within the budget.
    const many: string[] = [];
    for (let i = 0; i < 3 * MEMBERS; i++)
      many.push((await createUser(`big${i}@example.org`, {}, KEY_B)).id as string);
    const reply = await request('POST', '/Groups', {
      key: KEY_B,
      body: {
        schemas: [GROUP_SCHEMA],
        displayName: 'Big',
        members: many.map((value) => ({ value })),
      },
    });
    big = reply.body;
  }, 300_000);
  afterAll(async () => opened?.close());

  const service = (options: Parameters<typeof setup>[0] = {}) =>
    setup({ store: opened.store, maxResponseBytes: BUDGET, ...options });

  // Every group seen once, each with every member.
  function expectEveryGroupOnce(seen: Group[]) {
    expect(seen.map((g) => g.id).sort()).toEqual([...groupIds].sort());
    for (const g of seen) expect(g.members).toHaveLength(MEMBERS);
  }

  it('shrinks itemsPerPage of a list of large groups; paging on by startIndex returns each group once', async () => {
    const { request } = service();
    const seen: Group[] = [];
    let startIndex = 1;
    for (let pages = 0; pages < GROUPS + 1; pages++) {
      const reply = await request('GET', '/Groups', {
        query: `startIndex=${startIndex}&count=100`,
      });
      expect(reply.status).toBe(200);
      expect(reply.body.totalResults).toBe(GROUPS);
      expect(JSON.stringify(reply.body).length).toBeLessThanOrEqual(BUDGET);
      if (pages === 0) expect(reply.body.itemsPerPage).toBeLessThan(GROUPS);
      expect(reply.body.itemsPerPage).toBe(reply.body.Resources.length);
      seen.push(...(reply.body.Resources as Group[]));
      startIndex += reply.body.itemsPerPage as number;
      if (startIndex > GROUPS) break;
    }
    expectEveryGroupOnce(seen);
  });

  it('pages on by cursor: nextCursor resumes after the last group shown', async () => {
    const { request } = service();
    const seen: Group[] = [];
    let cursor: string | undefined = '';
    let first = true;
    for (let pages = 0; cursor !== undefined && pages < GROUPS + 1; pages++) {
      const reply: Reply = await request('GET', '/Groups', {
        query: `count=100&cursor=${encodeURIComponent(cursor)}`,
      });
      expect(reply.status).toBe(200);
      expect(reply.body.totalResults).toBe(GROUPS);
      if (first) expect(reply.body.itemsPerPage).toBeLessThan(GROUPS);
      first = false;
      seen.push(...(reply.body.Resources as Group[]));
      cursor = reply.body.nextCursor;
    }
    expect(cursor).toBeUndefined();
    expectEveryGroupOnce(seen);
  });

  it('lists every group at once with excludedAttributes=members', async () => {
    const { request } = service();
    const reply = await request('GET', '/Groups', { query: 'excludedAttributes=members' });
    expect(reply.body.itemsPerPage).toBe(GROUPS);
    expect(reply.body.Resources.every((g: Group) => g.members === undefined)).toBe(true);
  });

  it('refuses a single group too large to answer whole with 400 tooMany naming the way through', async () => {
    const { request } = service();
    for (const reply of [
      await request('GET', `/Groups/${big.id}`, { key: KEY_B }),
      await request('GET', '/Groups', { key: KEY_B, query: 'filter=displayName eq "Big"' }),
    ]) {
      expect(reply.status).toBe(400);
      expect(reply.body.scimType).toBe('tooMany');
      expect(reply.body.detail).toContain('excludedAttributes=members');
      expect(reply.body.detail).toContain('members.value eq');
    }
    const without = await request('GET', `/Groups/${big.id}`, {
      key: KEY_B,
      query: 'excludedAttributes=members',
    });
    expect(without.status).toBe(200);
    expect(without.body.displayName).toBe('Big');
  });

  it('reads no more members than the page answers', async () => {
    const watch = watched(opened.store);
    const { request } = setup({ store: watch.store, maxResponseBytes: BUDGET });
    watch.takeCount();
    const reply = await request('GET', '/Groups');
    const shown = (reply.body.Resources as Group[]).length;
    // At most the groups shown and one more (the one found not to fit), never all of them.
    expect(shown).toBeLessThan(GROUPS);
    expect(watch.takeCount()).toBeLessThanOrEqual((shown + 1) * MEMBERS);
  });

  it('holds the root search to the budget; paging on returns each group once', async () => {
    const { request } = service();
    const seen: Group[] = [];
    let startIndex = 1;
    for (let pages = 0; pages < GROUPS + 1 && startIndex <= GROUPS; pages++) {
      const reply = await request('POST', '/.search', {
        body: { schemas: [SEARCH], filter: 'displayName sw "Budget group"', startIndex, count: 50 },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.totalResults).toBe(GROUPS);
      expect(JSON.stringify(reply.body).length).toBeLessThanOrEqual(BUDGET);
      if (pages === 0) expect(reply.body.itemsPerPage).toBeLessThan(GROUPS);
      seen.push(...(reply.body.Resources as Group[]));
      startIndex += reply.body.itemsPerPage as number;
    }
    expectEveryGroupOnce(seen);
  });

  it('stops a Bulk request at the budget: every operation run is answered, none past it is run', async () => {
    const { request } = service();
    const operations = Array.from({ length: 20 }, (_, i) => ({
      method: 'POST',
      path: '/Groups',
      bulkId: `b${i}`,
      data: { schemas: [GROUP_SCHEMA], displayName: `Bulk budget ${i}` },
    }));
    const reply = await request('POST', '/Bulk', {
      body: { schemas: [BULK], Operations: operations },
    });
    expect(reply.status).toBe(200);
    expect(JSON.stringify(reply.body).length).toBeLessThanOrEqual(BUDGET);
    const answered = reply.body.Operations as { status: string; bulkId: string }[];
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length).toBeLessThan(operations.length);
    expect(answered.every((op) => op.status === '201')).toBe(true);
    const created = await request('GET', '/Groups', {
      query: `filter=${encodeURIComponent('displayName sw "Bulk budget"')}&excludedAttributes=members&count=100`,
    });
    expect(created.body.totalResults).toBe(answered.length);
  });

  it('answers 503 with Retry-After when concurrent answers hold the in-flight bound', async () => {
    // One group's text, measured on an unbounded answer.
    const plain = await setup({ store: opened.store }).request('GET', `/Groups/${groupIds[0]}`);
    const groupBytes = JSON.stringify(plain.body).length;
    const watch = watched(opened.store);
    const { request } = setup({
      store: watch.store,
      maxResponseBytes: BUDGET,
      // Room for two groups' members, not three.
      maxResponseBytesInFlight: Math.floor(2.5 * groupBytes),
    });
    // The list reads two groups' members, then waits on the third read.
    const gate = watch.holdAfter(2);
    const list = request('GET', '/Groups', { query: 'count=100' });
    await gate.held;
    const refused = await request('GET', `/Groups/${groupIds[0]}`);
    gate.release();
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.schemas).toEqual(['urn:ietf:params:scim:api:messages:2.0:Error']);
    expect(refused.body.detail).toContain('maxResponseBytesInFlight');
    const answered = await list;
    expect(answered.status).toBe(200);
    expect(answered.body.itemsPerPage).toBeGreaterThan(0);
    // Once the list is answered its room is free again.
    expect((await request('GET', `/Groups/${groupIds[0]}`)).status).toBe(200);
  });

  it('answers a write whose answer would not fit without a body, the write kept', async () => {
    const { request } = service();
    const put = await request('PUT', `/Groups/${big.id}`, {
      key: KEY_B,
      body: {
        schemas: [GROUP_SCHEMA],
        displayName: 'Big renamed',
        members: (big.members ?? []).map(({ value }) => ({ value })),
      },
    });
    expect(put.status).toBe(204);
    expect(put.body).toBeUndefined();
    expect(put.headers.etag).toBe('W/"2"');
    const read = await request('GET', `/Groups/${big.id}`, {
      key: KEY_B,
      query: 'excludedAttributes=members',
    });
    expect(read.body.displayName).toBe('Big renamed');
  });

  it('shows every member of groups larger than the first read of a page', async () => {
    const { request, createUser } = setup({ store: opened.store });
    const ids = (big.members ?? []).map((m) => m.value);
    for (let i = 0; i < 100; i++)
      ids.push((await createUser(`more${i}@example.org`, {}, KEY_B)).id as string);
    for (const name of ['Wide one', 'Wide two']) {
      const reply = await request('POST', '/Groups', {
        key: KEY_B,
        body: {
          schemas: [GROUP_SCHEMA],
          displayName: name,
          members: ids.map((value) => ({ value })),
        },
      });
      expect(reply.status).toBe(201);
    }
    const list = await request('GET', '/Groups', {
      key: KEY_B,
      query: `filter=${encodeURIComponent('displayName sw "Wide"')}`,
    });
    expect(list.body.itemsPerPage).toBe(2);
    for (const group of list.body.Resources as Group[]) {
      const values = (group.members ?? []).map((m) => m.value);
      expect(values).toEqual([...ids].sort());
    }
  });
});
