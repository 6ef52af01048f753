import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type { Filter } from '../../src/filter/ast.js';
import { parseFilter } from '../../src/filter/index.js';
import type { ScimUser } from '../../src/schema/user-resource.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { scanTable } from '../../src/stores/memory/scan-table.js';
import { SortedIds } from '../../src/stores/memory/sorted-ids.js';
import { createUserFactory, runStoreConformance } from '../../src/testing/index.js';
import { describeStoreConformance } from '../../src/testing/vitest.js';
import { USER_SCHEMA } from '../../src/schema/urns.js';
import { userResourceType } from '../../src/schema/user-resource-type.js';
import { initialAccount } from '../../src/core/users/account-status.js';
import { assembleUser, firstMeta } from '../../src/core/users/stored-user.js';
import { newId } from '../../src/core/resources/new-id.js';

// Wrap the one function that visits every user, to prove index lookups never reach it.
vi.mock('../../src/stores/memory/scan-table.js', async (importOriginal) => {
  const original = await importOriginal<{ scanTable: typeof scanTable }>();
  return { scanTable: vi.fn(original.scanTable) };
});

describeStoreConformance('MemoryUserStore', () => {
  const store = new MemoryUserStore();
  return { store, readStored: (tenant, id) => store.peek(tenant, id) };
});

const eq = (attribute: string, value: string): Filter => ({
  kind: 'compare',
  path: { attribute },
  op: 'eq',
  value,
});

async function seeded(n: number) {
  const store = new MemoryUserStore();
  const users = createUserFactory();
  const made = Array.from({ length: n }, () => users.make());
  for (const user of made) await store.create('t', user);
  return { store, users, made };
}

describe('MemoryUserStore without a scan', () => {
  it('answers userName, id and externalId equality, their and, and an unfiltered page without visiting every user', async () => {
    const { store, made } = await seeded(500);
    const target = made[321]!;
    vi.mocked(scanTable).mockClear();
    const page = { startIndex: 1, count: 10 };
    const found = await store.list('t', {
      ...page,
      filter: eq('userName', target.userName.toUpperCase()),
    });
    expect(found.resources.map((u) => u.id)).toEqual([target.id]);
    await store.list('t', { ...page, filter: eq('id', target.id) });
    await store.list('t', { ...page, filter: eq('externalId', 'none') });
    await store.list('t', {
      ...page,
      filter: { kind: 'and', left: eq('userName', target.userName), right: eq('externalId', 'x') },
    });
    const middle = await store.list('t', { startIndex: 250, count: 5 });
    expect(middle.resources.map((u) => u.id)).toEqual(made.slice(249, 254).map((u) => u.id));
    expect(scanTable).not.toHaveBeenCalled();
  });

  it('answers equalities joined by or from the indexes, in id order, each user once', async () => {
    const { store, made } = await seeded(300);
    const picked = [made[250]!, made[3]!, made[120]!];
    vi.mocked(scanTable).mockClear();
    const or = (left: Filter, right: Filter): Filter => ({ kind: 'or', left, right });
    const filter = or(
      or(eq('id', picked[0]!.id), eq('userName', picked[1]!.userName.toUpperCase())),
      or(eq('id', picked[2]!.id), or(eq('id', picked[1]!.id), eq('id', 'no-such-id'))),
    );
    const found = await store.list('t', { startIndex: 1, count: 10, filter });
    expect(found.resources.map((u) => u.id)).toEqual(picked.map((u) => u.id).sort());
    expect(found.totalResults).toBe(3);
    const counted = await store.list('t', { startIndex: 1, count: 0, filter });
    expect(counted.totalResults).toBe(3);
    expect(scanTable).not.toHaveBeenCalled();
    // The same filter through the filter engine (a term no index answers forces it).
    const scanned = await store.list('t', {
      startIndex: 1,
      count: 10,
      filter: { kind: 'and', left: filter, right: { kind: 'not', filter: eq('id', 'x') } },
    });
    expect(scanned.resources.map((u) => u.id)).toEqual(found.resources.map((u) => u.id));
  });

  it('scans, in id order, only for a filter no index answers', async () => {
    const { store, made } = await seeded(5);
    vi.mocked(scanTable).mockClear();
    const result = await store.list('t', {
      startIndex: 1,
      count: 10,
      filter: { kind: 'not', filter: eq('id', made[0]!.id) },
    });
    expect(result.totalResults).toBe(4);
    expect(scanTable).toHaveBeenCalledTimes(1);
  });
});

describe('MemoryUserStore hands out frozen users', () => {
  it('refuses changes, deep inside, to users from get and list, and keeps its input private', async () => {
    const { store, made } = await seeded(3);
    const target = made[1]!;
    const got = (await store.get('t', target.id))!;
    const listed = (await store.list('t', { startIndex: 1, count: 10 })).resources[1]!;
    for (const user of [got, listed]) {
      expect(() => {
        user.userName = 'x@example.org';
      }).toThrow(TypeError);
      expect(() => {
        user.meta.version = 'W/"9"';
      }).toThrow(TypeError);
      expect(() => user.emails?.push({ value: 'y@example.org' })).toThrow(TypeError);
    }
    expect(await store.get('t', target.id)).toEqual(target);
    // What was given to create stays the caller's to change.
    expect(Object.isFrozen(target)).toBe(false);
  });

  it('stores a new version that reuses parts of the stored one, and still owns every part', async () => {
    const { store, users, made } = await seeded(1);
    const before = (await store.get('t', made[0]!.id))!;
    // As the core builds a PATCH result: unchanged attributes are the stored objects themselves.
    const next = { ...users.next(before, { displayName: 'Next' }), name: before.name! };
    const emails = [{ value: 'new@example.org', type: 'work' }];
    next.emails = emails;
    await store.replace('t', next, { expectedVersion: before.meta.version });
    emails[0]!.value = 'scribbled@example.org';
    next.meta.version = 'W/"99"';
    const after = (await store.get('t', before.id))!;
    expect(after.emails).toEqual([{ value: 'new@example.org', type: 'work' }]);
    expect(after.meta.version).toBe('W/"2"');
    expect(after.displayName).toBe('Next');
    expect(after.name).toEqual(before.name);
    for (const part of [after, after.name, after.emails, after.emails?.[0], after.meta])
      expect(Object.isFrozen(part)).toBe(true);
  });

  it('keeps a deeply frozen new version as it is, and copies a part that is only frozen on top', async () => {
    const { store, users, made } = await seeded(1);
    const before = (await store.get('t', made[0]!.id))!;
    const deep = users.next(before, { displayName: 'Deep' });
    const freezeAll = (value: unknown): void => {
      if (typeof value !== 'object' || value === null) return;
      for (const item of Object.values(value)) freezeAll(item);
      Object.freeze(value);
    };
    freezeAll(deep);
    await store.replace('t', deep, { expectedVersion: before.meta.version });
    expect(await store.get('t', before.id)).toBe(deep);

    // Frozen on top, but with a part the caller can still change: that part is copied.
    const emails = [{ value: 'shallow@example.org', type: 'work' }];
    const shallow = Object.freeze({ ...users.next(deep, { displayName: 'Shallow' }), emails });
    await store.replace('t', shallow, { expectedVersion: deep.meta.version });
    emails[0]!.value = 'scribbled@example.org';
    const after = (await store.get('t', before.id))!;
    expect(after).not.toBe(shallow);
    expect(after.emails).toEqual([{ value: 'shallow@example.org', type: 'work' }]);
    expect(Object.isFrozen(after.emails?.[0])).toBe(true);
  });
});

describe('MemoryUserStore keeps each user small', () => {
  it('shares one frozen schemas list among the users created with equal ones', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory();
    const [ada, bob] = [users.make(), users.make()];
    const plain = users.make({ schemas: [USER_SCHEMA] });
    for (const user of [ada, bob, plain]) await store.create('t', user);
    const [a, b, c] = await Promise.all([ada, bob, plain].map((u) => store.get('t', u.id)));
    expect(a?.schemas).toEqual(ada.schemas);
    expect(b?.schemas).toBe(a?.schemas);
    expect(c?.schemas).toEqual([USER_SCHEMA]);
    expect(Object.isFrozen(a?.schemas)).toBe(true);
    // The caller's arrays stay the caller's.
    (ada.schemas as string[]).push('urn:x');
    expect((await store.get('t', bob.id))?.schemas).toEqual(bob.schemas);
  });

  it('stores a user the core assembled with the shared schemas list, its other members as they are', async () => {
    const store = new MemoryUserStore();
    const now = '2026-11-29T10:00:00.000Z';
    const make = (userName: string) =>
      assembleUser({
        id: newId(),
        attributes: { userName, name: { givenName: 'Ada' }, emails: [{ value: userName }] },
        account: initialAccount(false, now).account,
        meta: firstMeta(now),
        type: userResourceType(),
      });
    const [ada, bob] = [make('ada@example.org'), make('bob@example.org')];
    expect(bob.schemas).not.toBe(ada.schemas);
    for (const user of [ada, bob]) await store.create('t', user);
    const [a, b] = [await store.get('t', ada.id), await store.get('t', bob.id)];
    expect(b).toEqual(bob);
    expect(b?.schemas).toBe(a?.schemas);
    expect(b?.name).toBe(bob.name);
    expect(b?.emails).toBe(bob.emails);
    expect(Object.isFrozen(b)).toBe(true);
  });

  it('finds every holder of an externalId as holders come and go', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory();
    const [ada, bob, cy] = [1, 2, 3].map(() => users.make({ externalId: 'E-1' })) as [
      ScimUser,
      ScimUser,
      ScimUser,
    ];
    const holders = async () =>
      (
        await store.list('t', { startIndex: 1, count: 10, filter: eq('externalId', 'E-1') })
      ).resources.map((u) => u.id);
    await store.create('t', ada);
    expect(await holders()).toEqual([ada.id]);
    await store.create('t', bob);
    await store.create('t', cy);
    expect(await holders()).toEqual([ada.id, bob.id, cy.id]);
    await store.delete('t', bob.id);
    await store.replace('t', users.next(ada, { externalId: 'E-2' }), {
      expectedVersion: ada.meta.version,
    });
    expect(await holders()).toEqual([cy.id]);
    await store.create('t', bob);
    expect(await holders()).toEqual([bob.id, cy.id]);
    await store.delete('t', cy.id);
    await store.delete('t', bob.id);
    expect(await holders()).toEqual([]);
  });
});

describe('MemoryUserStore filters', () => {
  it('declares every filter supported but one on groups.$ref (the request decides the URL)', () => {
    const supports = new MemoryUserStore().capabilities.supportsFilter;
    expect(supports?.(parseFilter('groups[value eq "g"] or name.givenName co "a"'))).toBe(true);
    expect(supports?.(parseFilter('groups.display eq "x" and groups.type eq "direct"'))).toBe(true);
    expect(supports?.(parseFilter('groups.$ref eq "x"'))).toBe(false);
    expect(supports?.(parseFilter('not (groups[$ref sw "x"])'))).toBe(false);
  });

  it('narrows an and with one indexed side by the index, then checks the other side', async () => {
    const { store, made } = await seeded(50);
    const target = made[7]!;
    vi.mocked(scanTable).mockClear();
    const active = {
      kind: 'compare',
      path: { attribute: 'active' },
      op: 'eq',
      value: false,
    } as const;
    const filter: Filter = { kind: 'and', left: active, right: eq('userName', target.userName) };
    const found = await store.list('t', { startIndex: 1, count: 10, filter });
    expect(found.resources.map((u) => u.id)).toEqual([target.id]);
    const none = await store.list('t', {
      startIndex: 1,
      count: 10,
      filter: { ...filter, left: { ...active, value: true } },
    });
    expect(none.totalResults).toBe(0);
    expect(scanTable).not.toHaveBeenCalled();
  });

  it('evaluates other filters with the filter engine, following the schema', async () => {
    const store = new MemoryUserStore();
    const users = createUserFactory();
    const ada = users.make({
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ value: 'a@x.org', type: 'home' }],
    });
    const bob = users.make({ name: { givenName: 'Bob', familyName: 'Lovelock' } });
    await store.create('t', ada);
    await store.create('t', bob);
    const co: Filter = {
      kind: 'compare',
      path: { attribute: 'name', subAttribute: 'familyName' },
      op: 'sw',
      value: 'LOVEL',
    };
    expect((await store.list('t', { startIndex: 1, count: 10, filter: co })).totalResults).toBe(2);
    const home: Filter = {
      kind: 'valuePath',
      path: { attribute: 'emails' },
      filter: { kind: 'compare', path: { attribute: 'type' }, op: 'eq', value: 'home' },
    };
    const found = await store.list('t', { startIndex: 1, count: 10, filter: home });
    expect(found.resources.map((u) => u.id)).toEqual([ada.id]);
  });

  it('finds nothing for a userName eq with a non-string value', async () => {
    const { store } = await seeded(2);
    const filter: Filter = {
      kind: 'compare',
      path: { attribute: 'userName' },
      op: 'eq',
      value: null,
    };
    expect(await store.list('t', { startIndex: 1, count: 10, filter })).toEqual({
      totalResults: 0,
      resources: [],
    });
  });
});

describe('runStoreConformance', () => {
  it('passes every applicable case on the memory store without a test runner', async () => {
    const results = await runStoreConformance(() => new MemoryUserStore());
    expect(results.filter((r) => r.status === 'failed')).toEqual([]);
    // Without a back door, the case that needs one is skipped, not passed.
    expect(results.find((r) => r.id === 'create.back-door-sees-the-user')?.status).toBe('skipped');
  });

  it('reports a broken store as failed, with the case id', async () => {
    class ForgetfulStore extends MemoryUserStore {
      override async get() {
        return null;
      }
    }
    const results = await runStoreConformance(() => new ForgetfulStore());
    const failed = results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('create.get-returns-the-user');
    expect(failed).toContain('copies.get-returns-a-copy');
  });
});

describe('SortedIds (the id order behind pages)', () => {
  it('pages like a sorted array through any sequence of inserts and removals', () => {
    // Three inserts for each removal, so the set grows past many blocks.
    const op = fc.record({
      insert: fc.nat(3).map((n) => n > 0),
      id: fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd', '0', '1'), maxLength: 4 }),
    });
    const page = fc.record({ offset: fc.nat(60), count: fc.nat(30) });
    fc.assert(
      fc.property(
        fc.array(op, { minLength: 20, maxLength: 300 }),
        fc.array(page, { maxLength: 5 }),
        (ops, pages) => {
          const ids = new SortedIds(4); // tiny blocks, so splits and merges happen
          const model = new Set<string>();
          for (const { insert, id } of ops) {
            if (insert && !model.has(id)) {
              ids.insert(id);
              model.add(id);
            } else if (!insert) {
              ids.remove(id);
              model.delete(id);
            }
          }
          const sorted = [...model].sort();
          expect(ids.size).toBe(sorted.length);
          expect([...ids.values()]).toEqual(sorted);
          for (const { offset, count } of pages)
            expect(ids.slice(offset, count)).toEqual(sorted.slice(offset, offset + count));
        },
      ),
      { numRuns: 300 },
    );
  });
});
