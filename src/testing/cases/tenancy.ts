import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';
import { eq, idsMatching, supports } from './filter-builders.js';

/** A user of another tenant does not exist for a tenant, whatever the method. */
export const tenancyCases: readonly StoreConformanceCase[] = [
  {
    id: 'tenant.get-is-null',
    title: "get of another tenant's user resolves to null",
    async run({ store, tenant, otherTenant, users }) {
      const user = users.make();
      await store.create(otherTenant, user);
      check.equal(await store.get(tenant, user.id), null, "get of another tenant's user");
    },
  },
  {
    id: 'tenant.replace-is-false',
    title:
      "replace of another tenant's user resolves to false and changes nothing, even with its version",
    async run({ store, tenant, otherTenant, users, read }) {
      const user = users.make();
      await store.create(otherTenant, user);
      const next = users.next(user, { displayName: 'Hijacked' });
      check.equal(
        await store.replace(tenant, next, { expectedVersion: user.meta.version }),
        false,
        'replace',
      );
      check.sameUsers(await read(user.id, otherTenant), user, 'the user in its own tenant');
      check.equal(await store.get(tenant, user.id), null, 'get in the calling tenant');
    },
  },
  {
    id: 'tenant.delete-is-false',
    title: "delete of another tenant's user resolves to false and keeps it",
    async run({ store, tenant, otherTenant, users }) {
      const user = users.make();
      await store.create(otherTenant, user);
      check.equal(await store.delete(tenant, user.id), false, 'delete without version');
      check.equal(
        await store.delete(tenant, user.id, { expectedVersion: user.meta.version }),
        false,
        'delete with version',
      );
      check.sameUsers(await store.get(otherTenant, user.id), user, 'the user in its own tenant');
    },
  },
  {
    id: 'tenant.list-shows-own-users-only',
    title: "list never shows another tenant's users, and counts only the tenant's own",
    async run({ store, tenant, otherTenant, users }) {
      const mine = [users.make(), users.make(), users.make()];
      const theirs = [users.make(), users.make()];
      // Interleaved, so a store that pages before scoping shows it.
      for (const [i, user] of mine.entries()) {
        await store.create(tenant, user);
        const other = theirs[i];
        if (other) await store.create(otherTenant, other);
      }
      const page = await store.list(tenant, { startIndex: 1, count: 10 });
      check.equal(page.totalResults, 3, 'totalResults');
      check.deepEqual(
        page.resources.map((u) => u.id),
        mine.map((u) => u.id),
        'ids listed',
      );
      const second = await store.list(tenant, { startIndex: 2, count: 1 });
      check.deepEqual(
        second.resources.map((u) => u.id),
        [mine[1]?.id],
        'ids on the second page of one',
      );
      const empty = await store.list(`${tenant}-nobody`, { startIndex: 1, count: 10 });
      check.deepEqual(empty, { totalResults: 0, resources: [] }, 'list of a tenant with no users');
    },
  },
  {
    id: 'tenant.filters-see-own-users-only',
    title: "filters by userName, externalId or id never find another tenant's user",
    async run({ store, tenant, otherTenant, users }) {
      const mine = users.make({ userName: 'ada@example.org', externalId: 'shared-ext' });
      const theirs = users.make({ userName: 'ada@example.org', externalId: 'shared-ext' });
      await store.create(tenant, mine);
      await store.create(otherTenant, theirs);
      const probes = [
        { filter: eq('userName', 'ada@example.org'), expected: [mine.id] },
        { filter: eq('externalId', 'shared-ext'), expected: [mine.id] },
        { filter: eq('id', theirs.id), expected: [] },
      ];
      for (const { filter, expected } of probes) {
        if (!supports(store, filter)) continue;
        const found = await idsMatching(store, tenant, filter);
        check.deepEqual(
          found,
          { totalResults: expected.length, ids: expected },
          `${filter.kind} on ${JSON.stringify(filter)}`,
        );
      }
    },
  },
];
