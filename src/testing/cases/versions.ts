import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';

/** Writes are conditional on the version they are based on, so no update is lost. */
export const versionCases: readonly StoreConformanceCase[] = [
  {
    id: 'version.each-replace-needs-the-latest',
    title: 'after a replace, only the new version is accepted as the base of the next write',
    async run({ store, tenant, users }) {
      const v1 = users.make();
      await store.create(tenant, v1);
      const v2 = users.next(v1, { displayName: 'Second' });
      await store.replace(tenant, v2, { expectedVersion: v1.meta.version });
      const late = users.next(v1, { displayName: 'Late' });
      await check.rejects(
        store.replace(tenant, late, { expectedVersion: v1.meta.version }),
        412,
        undefined,
        'write based on v1',
      );
      await check.rejects(
        store.delete(tenant, v1.id, { expectedVersion: v1.meta.version }),
        412,
        undefined,
        'delete based on v1',
      );
      const v3 = users.next(v2, { displayName: 'Third' });
      check.equal(
        await store.replace(tenant, v3, { expectedVersion: v2.meta.version }),
        true,
        'write based on v2',
      );
      check.sameUsers(await store.get(tenant, v1.id), v3, 'the user');
    },
  },
  {
    id: 'version.concurrent-replaces',
    title: 'of concurrent replaces based on one version, exactly one wins and is what is stored',
    async run({ store, tenant, users }) {
      const base = users.make();
      await store.create(tenant, base);
      const writes = [1, 2, 3, 4, 5].map((n) => users.next(base, { displayName: `Writer ${n}` }));
      const outcomes = await Promise.allSettled(
        writes.map((user) => store.replace(tenant, user, { expectedVersion: base.meta.version })),
      );
      const winners = writes.filter((_, i) => {
        const outcome = outcomes[i];
        return outcome?.status === 'fulfilled' && outcome.value;
      });
      check.equal(winners.length, 1, 'replaces that won');
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          await check.rejects(Promise.reject(outcome.reason), 412, undefined, 'a losing replace');
        }
      }
      check.sameUsers(await store.get(tenant, base.id), winners[0], 'the stored user');
    },
  },
  {
    id: 'version.failed-write-keeps-the-version',
    title: 'a replace rejected for uniqueness leaves the stored version the base of the next write',
    async run({ store, tenant, users }) {
      const ada = users.make({ userName: 'ada@example.org' });
      const bob = users.make({ userName: 'bob@example.org' });
      await store.create(tenant, ada);
      await store.create(tenant, bob);
      const clash = users.next(bob, { userName: 'ada@example.org' });
      await check.rejects(
        store.replace(tenant, clash, { expectedVersion: bob.meta.version }),
        409,
        'uniqueness',
        'rename',
      );
      const fine = users.next(bob, { displayName: 'Bob' });
      check.equal(
        await store.replace(tenant, fine, { expectedVersion: bob.meta.version }),
        true,
        'next replace',
      );
    },
  },
];
