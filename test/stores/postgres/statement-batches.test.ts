// Concurrent reads by id, creates and replaces of one PostgresUserStore share statements
// (`StatementBatches`, a speed device): each must still end as it would alone. A read answers
// what it reads alone; a write is written with its count and its events exactly when it
// succeeds, refused with the same error when its userName is taken, its version stale, its user
// missing or its values refused by the server, and never failed by another of its statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DirectoryEvent, DirectoryEventType } from '../../../src/contracts/event-log.js';
import { newId } from '../../../src/core/resources/new-id.js';
import { isScimError } from '../../../src/errors/index.js';
import { parseFilter } from '../../../src/filter/index.js';
import type { ScimGroup } from '../../../src/schema/group-schema.js';
import { GROUP_SCHEMA } from '../../../src/schema/urns.js';
import type { ScimUser } from '../../../src/schema/user-resource.js';
import {
  LEFT_OUT,
  StatementBatches,
  type BatchedStatement,
} from '../../../src/stores/postgres/statement-batches.js';
import { PostgresUserStore, type QueryExecutor } from '../../../src/stores/postgres/index.js';
import { backends, inNoGroup, makeUser, type Backend } from './harness.js';

/** Counts the statements an executor sends outside transactions. */
function counting(executor: QueryExecutor): { executor: QueryExecutor; statements: () => number } {
  let statements = 0;
  return {
    executor: {
      query: (sql, params, options) => {
        statements += 1;
        return executor.query(sql, params, options);
      },
      transaction: (fn, options) => executor.transaction(fn, options),
    },
    statements: () => statements,
  };
}

for (const { name, open } of backends) {
  describe(`concurrent writes sharing statements (${name})`, () => {
    let backend: Backend;
    let store: PostgresUserStore;
    let statements: () => number;
    let cases = 0;
    let tenant: string;
    const nextTenant = () => (tenant = `batch-${(cases += 1)}`);

    /** The events a service records for a user created active with a mailer. */
    const eventsOf = (
      user: ScimUser,
      type: DirectoryEventType = 'user.created',
    ): DirectoryEvent[] => {
      const data = { id: user.id, resourceType: 'User', resource: user };
      const at = new Date().toISOString();
      return [
        { id: newId(), type, tenant, occurredAt: at, data },
        { id: newId(), type: 'user.invited', tenant, occurredAt: at, data },
      ];
    };
    /**
     * The tenant's events as the feed lists them: type, the user's id, and the resource's
     * userName. On a shared server another client's open transaction holds the feed back
     * (docs/events.md), so it is read again, for up to 20 s, until it lists `expected` events.
     */
    const logged = async (expected: number) => {
      const until = Date.now() + 20_000;
      for (;;) {
        const { events } = await store.events.list({ tenant, limit: 10_000 });
        if (events.length >= expected || Date.now() > until)
          return events.map((event) => ({
            type: event.type,
            id: event.data.id,
            user_name: (event.data.resource?.userName as string | undefined) ?? null,
          }));
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    const total = async () => (await store.list(tenant, { startIndex: 1, count: 1 })).totalResults;

    beforeAll(async () => {
      backend = await open();
      const counted = counting(backend.executor);
      statements = counted.statements;
      store = new PostgresUserStore({
        executor: counted.executor,
        schema: backend.schema,
        migrate: true,
      });
      await store.migrate();
    }, 60_000);
    afterAll(() => backend?.close());

    it('stores, counts and records each of many concurrent creates, in fewer statements', async () => {
      nextTenant();
      const users = Array.from({ length: 40 }, () => makeUser());
      const before = statements();
      // Half of them with events, as a service records them, half without (a store's own use).
      const withEvents = (i: number) => i % 2 === 0;
      await Promise.all(
        users.map((user, i) =>
          store.create(tenant, user, withEvents(i) ? { events: eventsOf(user) } : undefined),
        ),
      );
      // Fewer statements than creates: the creates below did share statements.
      expect(statements() - before).toBeLessThan(users.length);

      for (const user of users) expect(await store.get(tenant, user.id)).toEqual(inNoGroup(user));
      expect(await total()).toBe(users.length);
      const rows = await logged(users.length);
      expect(rows).toHaveLength(users.length);
      users.forEach((user, i) => {
        // Each user's two events, in the order sent, both carrying the user; none without.
        const own = rows.filter((row) => row.id === user.id);
        expect(own).toEqual(
          withEvents(i)
            ? [
                { type: 'user.created', id: user.id, user_name: user.userName },
                { type: 'user.invited', id: user.id, user_name: user.userName },
              ]
            : [],
        );
      });
    });

    it('lets exactly one create of a userName succeed, and the others fail as they would alone', async () => {
      nextTenant();
      const taken = makeUser({ userName: 'taken@example.org' });
      await store.create(tenant, taken, { events: eventsOf(taken) });
      // Pairs of one userName in two letter cases, and creates of the name taken before.
      const users = Array.from({ length: 10 }, (_, i) => [
        makeUser({ userName: `pair${i}@example.org` }),
        makeUser({ userName: `PAIR${i}@Example.org` }),
        makeUser({ userName: 'Taken@Example.org' }),
      ]).flat();
      const settled = await Promise.allSettled(
        users.map((user) => store.create(tenant, user, { events: eventsOf(user) })),
      );

      const stored = users.filter((_, i) => settled[i]?.status === 'fulfilled');
      expect(stored).toHaveLength(10);
      for (let i = 0; i < 10; i++) {
        const names = stored.map((u) => u.userName.toLowerCase());
        expect(names.filter((n) => n === `pair${i}@example.org`)).toHaveLength(1);
      }
      settled.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled') return;
        const error: unknown = outcome.reason;
        expect(isScimError(error) && error.status === 409 && error.scimType === 'uniqueness').toBe(
          true,
        );
        expect((error as Error).message).toContain(`userName "${users[i]?.userName}"`);
      });
      expect(await total()).toBe(11);
      // Only the stored creates recorded events.
      const rows = await logged(2 * (stored.length + 1));
      expect(rows).toHaveLength(2 * (stored.length + 1));
      expect(new Set(rows.map((row) => row.id))).toEqual(
        new Set([taken, ...stored].map((u) => u.id)),
      );
    });

    it('stores one of concurrent creates of one id, and refuses the others', async () => {
      nextTenant();
      const id = makeUser().id;
      // Creates of one id among others, behind the first ones that run alone.
      const shared = (i: number) => i === 4 || i === 8 || i === 9;
      const users = Array.from({ length: 12 }, (_, i) => makeUser(shared(i) ? { id } : {}));
      const settled = await Promise.allSettled(users.map((user) => store.create(tenant, user)));
      const ofId = settled.filter((_, i) => shared(i));
      expect(ofId.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
      for (const s of ofId.filter((s) => s.status === 'rejected'))
        expect(s.reason).toMatchObject({ status: 409, scimType: 'uniqueness' });
      expect(settled.filter((_, i) => !shared(i)).every((s) => s.status === 'fulfilled')).toBe(
        true,
      );
      expect(await total()).toBe(10);
    });

    /** `user` at its next version, renamed, as a PUT or PATCH would hand it to the store. */
    const next = (user: ScimUser, changes: Partial<ScimUser> = {}): ScimUser => ({
      ...user,
      displayName: `Next ${user.id}`,
      ...changes,
      meta: { ...user.meta, version: 'W/"2"', lastModified: '2025-02-01T00:00:00.000Z' },
    });
    const updated = (user: ScimUser): DirectoryEvent[] => [
      {
        id: newId(),
        type: 'user.updated',
        tenant,
        occurredAt: new Date().toISOString(),
        data: { id: user.id, resourceType: 'User', resource: user },
      },
    ];

    // PGlite has one session: no other transaction can hold a user's row while a write waits.
    it.skipIf(name === 'pglite')(
      'replaces the others while another transaction holds one user, and that one once it is free',
      async () => {
        nextTenant();
        const users = Array.from({ length: 14 }, () => makeUser());
        for (const user of users) await store.create(tenant, user);
        const [held, alone, later, ...others] = users as [ScimUser, ...ScimUser[]];
        let release = () => {};
        let holding = () => {};
        const locked = new Promise<void>((resolve) => (holding = resolve));
        // Another process holds the row until it is told to let go, as a long transaction would.
        const holder = backend.other.transaction(async (tx) => {
          await tx.query(
            `SELECT 1 FROM ${backend.tables.users} WHERE tenant = $1 AND id = $2 FOR UPDATE`,
            [tenant, held.id],
          );
          holding();
          await new Promise<void>((resolve) => (release = resolve));
        });
        await locked;
        const replace = (user: ScimUser) =>
          store.replace(tenant, next(user), {
            expectedVersion: 'W/"1"',
            events: updated(next(user)),
          });
        // The held user's replace alone, then with others in one statement (behind a first one
        // that starts it): neither holds back the replaces after it.
        const waiting = replace(held);
        expect(await replace(alone as ScimUser)).toBe(true);
        const first = replace(makeUser());
        const again = replace({ ...held, displayName: 'again' });
        const rest = Promise.all(others.map(replace));
        expect(await first).toBe(false);
        expect(await rest).toEqual(others.map(() => true));
        expect(await replace(later as ScimUser)).toBe(true);
        for (const user of [alone as ScimUser, later as ScimUser, ...others])
          expect(await store.get(tenant, user.id)).toEqual(inNoGroup(next(user)));
        expect(await store.get(tenant, held.id)).toEqual(inNoGroup(held));
        release();
        await holder;
        // Once free, the two writes of the held user run as they would alone: one wins.
        const outcomes = await Promise.allSettled([waiting, again]);
        expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === true)).toHaveLength(
          1,
        );
        expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(1);
        expect((await store.get(tenant, held.id))?.meta.version).toBe('W/"2"');
        const rows = await logged(users.length);
        expect(rows.map((row) => row.id).sort()).toEqual(users.map((user) => user.id).sort());
      },
    );

    it('replaces, and records, each of many concurrent replaces, in fewer statements', async () => {
      nextTenant();
      const users = Array.from({ length: 30 }, () => makeUser());
      for (const user of users) await store.create(tenant, user);
      const before = statements();
      const answers = await Promise.all(
        users.map((user) =>
          store.replace(tenant, next(user), {
            expectedVersion: 'W/"1"',
            events: updated(next(user)),
          }),
        ),
      );
      expect(statements() - before).toBeLessThan(users.length);
      expect(answers).toEqual(users.map(() => true));
      for (const user of users)
        expect(await store.get(tenant, user.id)).toEqual(inNoGroup(next(user)));
      // One event each, carrying the user; concurrent writes commit in no set order.
      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      expect((await logged(users.length)).sort(byId)).toEqual(
        users
          .map((user) => ({ type: 'user.updated', id: user.id, user_name: user.userName }))
          .sort(byId),
      );
    });

    it('answers each of concurrent replaces as it would alone', async () => {
      nextTenant();
      const plain = Array.from({ length: 8 }, () => makeUser());
      const [stale, twice] = [makeUser(), makeUser()];
      for (const user of [...plain, stale, twice]) await store.create(tenant, user);
      const missing = makeUser();
      const replace = (user: ScimUser, expectedVersion = 'W/"1"') =>
        store.replace(tenant, user, { expectedVersion, events: updated(user) });

      const settled = await Promise.allSettled([
        ...plain.map((user) => replace(next(user))),
        replace(next(stale), 'W/"7"'),
        replace(next(missing)),
        replace(next(twice, { displayName: 'first' })),
        replace(next(twice, { displayName: 'second' })),
      ]);

      const [staleOutcome, missingOutcome, ...twiceOutcomes] = settled.slice(8);
      expect(settled.slice(0, 8)).toEqual(plain.map(() => ({ status: 'fulfilled', value: true })));
      expect(staleOutcome).toMatchObject({ status: 'rejected', reason: { status: 412 } });
      expect(missingOutcome).toEqual({ status: 'fulfilled', value: false });
      // Two replaces of one user at one version: one replaces it, the other finds it stale.
      expect(twiceOutcomes.map((o) => o?.status).sort()).toEqual(['fulfilled', 'rejected']);
      const lost = twiceOutcomes.find((o) => o?.status === 'rejected');
      expect(lost).toMatchObject({ reason: { status: 412 } });
      const won = twiceOutcomes.findIndex((o) => o?.status === 'fulfilled');
      expect((await store.get(tenant, twice.id))?.displayName).toBe(['first', 'second'][won]);

      for (const user of plain)
        expect(await store.get(tenant, user.id)).toEqual(inNoGroup(next(user)));
      expect(await store.get(tenant, stale.id)).toEqual(inNoGroup(stale));
      expect(await store.get(tenant, missing.id)).toBeNull();
      // Only the replaces that wrote recorded their event.
      const ids = (await logged(plain.length + 1)).map((row) => row.id).sort();
      expect(ids).toEqual([...plain, twice].map((u) => u.id).sort());
    });

    it('fails only the replace that takes a userName another user holds', async () => {
      nextTenant();
      const users = Array.from({ length: 12 }, () => makeUser());
      for (const user of users) await store.create(tenant, user);
      const [holder, renamed] = users as [ScimUser, ScimUser];
      const rest = users.slice(2);
      const settled = await Promise.allSettled([
        ...rest
          .slice(0, 5)
          .map((user) => store.replace(tenant, next(user), { expectedVersion: 'W/"1"' })),
        store.replace(tenant, next(renamed, { userName: holder.userName.toUpperCase() }), {
          expectedVersion: 'W/"1"',
        }),
        ...rest
          .slice(5)
          .map((user) => store.replace(tenant, next(user), { expectedVersion: 'W/"1"' })),
      ]);
      expect(settled[5]).toMatchObject({
        status: 'rejected',
        reason: { status: 409, scimType: 'uniqueness' },
      });
      expect(settled.filter((_, i) => i !== 5)).toEqual(
        rest.map(() => ({ status: 'fulfilled', value: true })),
      );
      expect(await store.get(tenant, renamed.id)).toEqual(inNoGroup(renamed));
      for (const user of rest)
        expect(await store.get(tenant, user.id)).toEqual(inNoGroup(next(user)));
    });

    it('reads each of many concurrent reads as it reads alone, in fewer statements', async () => {
      nextTenant();
      const groups = store.groups;
      const users = Array.from({ length: 24 }, () => makeUser());
      for (const user of users) await store.create(tenant, user);
      const at = '2025-01-01T00:00:00.000Z';
      const group = (id: string): ScimGroup => ({
        schemas: [GROUP_SCHEMA],
        id,
        displayName: `Group ${id}`,
        meta: { resourceType: 'Group', created: at, lastModified: at, version: 'W/"1"' },
      });
      // One user in a group, one in a group that is itself in a group.
      const [direct, nested] = users as [ScimUser, ScimUser];
      await groups.create(tenant, group(`${tenant}-a`), [{ value: direct.id }]);
      await groups.create(tenant, group(`${tenant}-b`), [{ value: nested.id }]);
      await groups.create(tenant, group(`${tenant}-c`), [{ value: `${tenant}-b` }]);
      const missing = makeUser().id;
      // Reads of this tenant's users, of one that does not exist, and of them from another tenant.
      const reads: [string, string][] = [
        ...users.map((u): [string, string] => [tenant, u.id]),
        [tenant, missing],
        [`${tenant}-other`, direct.id],
        [`${tenant}-other`, users[5]?.id ?? ''],
      ];
      const alone: unknown[] = [];
      for (const [t, id] of reads) alone.push(await store.get(t, id));

      const before = statements();
      const together = await Promise.all(reads.map(([t, id]) => store.get(t, id)));
      expect(statements() - before).toBeLessThan(reads.length);
      expect(together).toEqual(alone);
      expect(together.filter((u) => u === null)).toHaveLength(3);
      expect((together[0] as ScimUser & { groups?: unknown }).groups).toEqual([
        { value: `${tenant}-a`, display: `Group ${tenant}-a`, type: 'direct' },
      ]);
    });

    it('answers each of many concurrent userName lookups as alone, in fewer statements', async () => {
      nextTenant();
      const users = Array.from({ length: 24 }, () => makeUser());
      for (const user of users) await store.create(tenant, user);
      const lookups: [string, string][] = [
        ...users.map((u, i): [string, string] => [
          tenant,
          i % 2 ? u.userName.toUpperCase() : u.userName,
        ]),
        [tenant, 'nobody@example.org'],
        [`${tenant}-other`, users[3]?.userName ?? ''],
      ];
      const list = ([t, userName]: [string, string]) =>
        store.list(t, {
          filter: parseFilter(`userName eq ${JSON.stringify(userName)}`),
          startIndex: 1,
          count: 10,
        });
      const alone: unknown[] = [];
      for (const lookup of lookups) alone.push(await list(lookup));

      const before = statements();
      const together = await Promise.all(lookups.map(list));
      expect(statements() - before).toBeLessThan(lookups.length);
      expect(together).toEqual(alone);
      expect(together.map((page) => page.totalResults)).toEqual([...users.map(() => 1), 0, 0]);
    });

    it('answers many concurrent reads of one user together, each as alone', async () => {
      nextTenant();
      const user = makeUser();
      await store.create(tenant, user);
      const alone = await store.get(tenant, user.id);
      const page = (userName: string) =>
        store.list(tenant, {
          filter: parseFilter(`userName eq ${JSON.stringify(userName)}`),
          startIndex: 1,
          count: 10,
        });
      const found = await page(user.userName);

      const before = statements();
      const [reads, lookups] = await Promise.all([
        Promise.all(Array.from({ length: 16 }, () => store.get(tenant, user.id))),
        Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            page(i % 2 ? user.userName.toUpperCase() : user.userName),
          ),
        ),
      ]);
      // A read of a user does not wait for another read of it to end: they share statements.
      expect(statements() - before).toBeLessThan(8);
      for (const read of reads) expect(read).toEqual(alone);
      for (const lookup of lookups) expect(lookup).toEqual(found);
      expect(found.totalResults).toBe(1);
    });

    it('fails only the create whose values the server refuses', async () => {
      nextTenant();
      // A time PostgreSQL cannot read: the core never sends one, a store must still answer it.
      const bad = makeUser();
      const refused = { ...bad, meta: { ...bad.meta, created: 'not a time' } };
      let alone: unknown;
      await store.create(tenant, refused).catch((error: unknown) => (alone = error));
      expect(alone).toMatchObject({ code: '22007' });

      const users = Array.from({ length: 20 }, () => makeUser());
      const all = [...users.slice(0, 10), { ...refused, id: makeUser().id }, ...users.slice(10)];
      const settled = await Promise.allSettled(
        all.map((user) => store.create(tenant, user, { events: eventsOf(user) })),
      );
      expect(settled.map((s) => s.status)).toEqual(
        all.map((user) => (user.meta.created === 'not a time' ? 'rejected' : 'fulfilled')),
      );
      expect(settled[10]).toMatchObject({ reason: { code: '22007' } });
      for (const user of users) expect(await store.get(tenant, user.id)).toEqual(inNoGroup(user));
      expect(await total()).toBe(users.length);
      expect(await logged(2 * users.length)).toHaveLength(2 * users.length);
    });
  });
}

/** Statements of numbers for `StatementBatches`, each its own row unless `rowOf` says otherwise. */
function numbers(
  statement: Partial<BatchedStatement<number, string>>,
): BatchedStatement<number, string> {
  return {
    one: async () => 'alone',
    many: async (items) => items.map(() => 'shared'),
    sizeOf: () => 1,
    rowOf: (item) => String(item),
    ...statement,
  };
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('StatementBatches', () => {
  it('fails every write of a statement that failed for another reason than its values', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const alone: number[] = [];
    const batches = new StatementBatches(
      numbers({
        one: async (item) => {
          alone.push(item);
          await tick();
          return 'alone';
        },
        many: () => Promise.reject(lost),
      }),
    );
    const settled = await Promise.allSettled([1, 2, 3, 4, 5, 6].map((i) => batches.run(i)));
    // The first writes went alone; those that waited shared a statement, which failed.
    const failed = settled.flatMap((s, i) => (s.status === 'rejected' ? [i + 1] : []));
    expect(failed.length).toBeGreaterThan(0);
    for (const i of failed) expect(settled[i - 1]).toMatchObject({ reason: lost });
    expect(alone.filter((i) => failed.includes(i))).toEqual([]);
  });

  it('writes alone each write a shared statement left out, and no write twice', async () => {
    const written: number[] = [];
    const batches = new StatementBatches(
      numbers({
        one: async (item) => {
          await tick();
          written.push(item);
          return 'alone';
        },
        many: async (items) => {
          await tick();
          // Odd items are written by the shared statement; even ones left out.
          const wrote = items.filter((item) => item % 2 === 1);
          written.push(...wrote);
          return items.map((item) => (wrote.includes(item) ? 'shared' : LEFT_OUT));
        },
      }),
    );
    const items = Array.from({ length: 50 }, (_, i) => i);
    const answers = await Promise.all(items.map((i) => batches.run(i)));
    expect([...written].sort((a, b) => a - b)).toEqual(items);
    // What each answers: what its shared statement answered, or what it answered alone.
    expect(answers.filter((a) => a === 'shared').length).toBeGreaterThan(0);
    answers.forEach((answer, i) => {
      if (answer === 'shared') expect(i % 2).toBe(1);
    });
  });

  it('never puts two writes of one row in one statement', async () => {
    const statements: number[][] = [];
    const batches = new StatementBatches(
      numbers({
        one: async (item) => {
          statements.push([item]);
          await tick();
          return 'alone';
        },
        many: async (items) => {
          statements.push([...items]);
          await tick();
          return items.map(() => 'shared');
        },
        rowOf: (item) => String(item % 3),
      }),
    );
    await Promise.all(Array.from({ length: 30 }, (_, i) => batches.run(i)));
    expect(statements.flat().sort((a, b) => a - b)).toEqual(
      Array.from({ length: 30 }, (_, i) => i),
    );
    for (const items of statements)
      expect(new Set(items.map((i) => i % 3)).size).toBe(items.length);
  });
});
