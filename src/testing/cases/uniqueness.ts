import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';

const page = { startIndex: 1, count: 100 } as const;

/**
 * userNames that are one identity: each group's first is created, and every other must then
 * be refused. Composed and decomposed accents, the three sigmas, capital and small sharp s.
 */
const UNICODE_CASE_GROUPS: readonly (readonly [string, ...string[]])[] = [
  ['Émile@example.org', 'émile@example.org', 'E\u0301mile@example.org', 'e\u0301MILE@EXAMPLE.ORG'],
  ['Ünal@example.org', 'ünal@example.org', 'U\u0308NAL@example.org'],
  ['Σίσυφος@example.org', 'ΣΊΣΥΦΟΣ@example.org', 'σίσυφοσ@example.org', 'ςίσυφος@example.org'],
  ['STRAẞE@example.org', 'straße@example.org', 'Straße@EXAMPLE.org'],
];

/** userName is unique per tenant regardless of case, on create and on replace. */
export const uniquenessCases: readonly StoreConformanceCase[] = [
  {
    id: 'uniqueness.create-same-username',
    title: 'create with a userName already taken throws uniqueness (409)',
    async run({ store, tenant, users }) {
      const first = users.make({ userName: 'ada@example.org' });
      await store.create(tenant, first);
      const second = users.make({ userName: 'ada@example.org' });
      await check.rejects(
        store.create(tenant, second),
        409,
        'uniqueness',
        'create of a taken userName',
      );
      check.equal(await store.get(tenant, second.id), null, 'the rejected user');
    },
  },
  {
    id: 'uniqueness.create-ignores-case',
    title: 'create with a taken userName in another letter case throws uniqueness (409)',
    async run({ store, tenant, users }) {
      const first = users.make({ userName: 'Ada.Lovelace@Example.org' });
      await store.create(tenant, first);
      const second = users.make({ userName: 'ada.lovelace@EXAMPLE.ORG' });
      await check.rejects(
        store.create(tenant, second),
        409,
        'uniqueness',
        'create of a taken userName',
      );
      const listed = await store.list(tenant, page);
      check.equal(listed.totalResults, 1, 'totalResults after the rejected create');
      check.sameUsers(await store.get(tenant, first.id), first, 'the first user');
    },
  },
  {
    id: 'uniqueness.replace-to-taken-username',
    title:
      "replace that takes another user's userName (in any case) throws uniqueness and changes nothing",
    async run({ store, tenant, users, read }) {
      const ada = users.make({ userName: 'ada@example.org' });
      const bob = users.make({ userName: 'bob@example.org' });
      await store.create(tenant, ada);
      await store.create(tenant, bob);
      const renamed = users.next(bob, { userName: 'ADA@example.org' });
      await check.rejects(
        store.replace(tenant, renamed, { expectedVersion: bob.meta.version }),
        409,
        'uniqueness',
        'rename to a taken userName',
      );
      check.sameUsers(await read(bob.id), bob, 'the renamed user');
      check.sameUsers(await read(ada.id), ada, 'the holder of the userName');
    },
  },
  {
    id: 'uniqueness.replace-own-username-other-case',
    title: "replace may change the letter case of the user's own userName",
    async run({ store, tenant, users }) {
      const ada = users.make({ userName: 'ada@example.org' });
      await store.create(tenant, ada);
      const next = users.next(ada, { userName: 'Ada@Example.org' });
      check.equal(
        await store.replace(tenant, next, { expectedVersion: ada.meta.version }),
        true,
        'replace',
      );
      check.sameUsers(await store.get(tenant, ada.id), next, 'get after the rename');
      const again = users.make({ userName: 'ADA@EXAMPLE.ORG' });
      await check.rejects(
        store.create(tenant, again),
        409,
        'uniqueness',
        'create of the renamed userName',
      );
    },
  },
  {
    id: 'uniqueness.freed-by-rename',
    title: 'after a rename, the old userName can be taken by a new user',
    async run({ store, tenant, users }) {
      const ada = users.make({ userName: 'ada@example.org' });
      await store.create(tenant, ada);
      await store.replace(tenant, users.next(ada, { userName: 'ada.k@example.org' }), {
        expectedVersion: ada.meta.version,
      });
      const newcomer = users.make({ userName: 'Ada@example.org' });
      await store.create(tenant, newcomer);
      check.sameUsers(await store.get(tenant, newcomer.id), newcomer, 'the newcomer');
    },
  },
  {
    id: 'uniqueness.freed-by-delete',
    title: 'after a delete, the userName can be taken by a new user',
    async run({ store, tenant, users }) {
      const ada = users.make({ userName: 'ada@example.org' });
      await store.create(tenant, ada);
      await store.delete(tenant, ada.id);
      const newcomer = users.make({ userName: 'ADA@example.org' });
      await store.create(tenant, newcomer);
      check.sameUsers(await store.get(tenant, newcomer.id), newcomer, 'the newcomer');
    },
  },
  {
    id: 'uniqueness.per-tenant',
    title: 'the same userName may exist once in each tenant',
    async run({ store, tenant, otherTenant, users }) {
      const ada = users.make({ userName: 'ada@example.org' });
      const twin = users.make({ userName: 'Ada@example.org' });
      await store.create(tenant, ada);
      await store.create(otherTenant, twin);
      check.sameUsers(await store.get(otherTenant, twin.id), twin, 'the user of the other tenant');
    },
  },
  {
    id: 'uniqueness.concurrent-creates',
    title: 'of concurrent creates of one userName (in various cases), exactly one succeeds',
    async run({ store, tenant, users }) {
      const names = ['ada@example.org', 'ADA@example.org', 'Ada@Example.org', 'ada@EXAMPLE.ORG'];
      const attempts = [...names, ...names].map((userName) => users.make({ userName }));
      const outcomes = await Promise.allSettled(attempts.map((user) => store.create(tenant, user)));
      check.equal(
        outcomes.filter((o) => o.status === 'fulfilled').length,
        1,
        'creates that succeeded',
      );
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          await check.rejects(Promise.reject(outcome.reason), 409, 'uniqueness', 'a losing create');
        }
      }
      check.equal((await store.list(tenant, page)).totalResults, 1, 'totalResults');
    },
  },
  {
    id: 'uniqueness.unicode-case-pairs',
    title:
      'userNames equal under Unicode simple case folding and NFC (É/é/e+U+0301, Σ/σ/ς, ẞ/ß, Ü/ü) are one identity, stored as sent',
    async run({ store, tenant, users, read }) {
      for (const [first, ...others] of UNICODE_CASE_GROUPS) {
        const holder = users.make({ userName: first });
        await store.create(tenant, holder);
        for (const other of others) {
          await check.rejects(
            store.create(tenant, users.make({ userName: other })),
            409,
            'uniqueness',
            `create of ${JSON.stringify(other)} while ${JSON.stringify(first)} exists`,
          );
        }
        check.sameUsers(await read(holder.id), holder, `the holder of ${JSON.stringify(first)}`);
      }
      check.equal(
        (await store.list(tenant, page)).totalResults,
        UNICODE_CASE_GROUPS.length,
        'totalResults after the rejected creates',
      );
    },
  },
  {
    id: 'uniqueness.unicode-rename-to-taken',
    title: "replace to another user's userName in another Unicode case throws uniqueness",
    async run({ store, tenant, users, read }) {
      const emile = users.make({ userName: 'Émile@example.org' });
      const bob = users.make({ userName: 'bob@example.org' });
      await store.create(tenant, emile);
      await store.create(tenant, bob);
      await check.rejects(
        store.replace(tenant, users.next(bob, { userName: 'E\u0301MILE@example.org' }), {
          expectedVersion: bob.meta.version,
        }),
        409,
        'uniqueness',
        'rename to a taken userName in another case and normal form',
      );
      check.sameUsers(await read(bob.id), bob, 'the renamed user');
      // The user's own userName in another case and normal form is still its own.
      const own = users.next(emile, { userName: 'e\u0301mile@example.org' });
      check.equal(
        await store.replace(tenant, own, { expectedVersion: emile.meta.version }),
        true,
        'replace with its own userName in another case',
      );
      check.sameUsers(await read(emile.id), own, 'the user after the rename');
    },
  },
  {
    id: 'uniqueness.sharp-s-is-not-ss',
    title: 'simple case folding keeps ß and ss apart: straße and strasse are two userNames',
    async run({ store, tenant, users, read }) {
      const sharp = users.make({ userName: 'straße@example.org' });
      const double = users.make({ userName: 'STRASSE@example.org' });
      await store.create(tenant, sharp);
      await store.create(tenant, double);
      check.sameUsers(await read(double.id), double, 'the second user');
    },
  },
];
