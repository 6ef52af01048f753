import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';
import { ENTERPRISE_USER_SCHEMA } from '../../schema/urns.js';

/** Create, get, replace and delete of a single user. */
export const crudCases: readonly StoreConformanceCase[] = [
  {
    id: 'create.get-returns-the-user',
    title: 'get returns exactly the user create stored, attributes it does not model included',
    async run({ store, tenant, users }) {
      const user = users.make({
        externalId: 'ext-Ada-1',
        active: true,
        roles: [{ value: 'teacher', primary: true }],
        title: 'Teacher',
        [ENTERPRISE_USER_SCHEMA]: { department: 'Science', manager: { value: 'boss-1' } },
      });
      await store.create(tenant, user);
      check.sameUsers(await store.get(tenant, user.id), user, 'get after create');
    },
  },
  {
    id: 'create.back-door-sees-the-user',
    title: 'what create stored is the user it was given (read through the back door)',
    async run({ store, tenant, users, readStored, skip }) {
      if (!readStored) return skip('the harness has no readStored back door');
      const user = users.make({ externalId: 'ext-1' });
      await store.create(tenant, user);
      check.deepEqual(await readStored(tenant, user.id), user, 'stored user');
    },
  },
  {
    id: 'get.missing-is-null',
    title: 'get of an unknown id resolves to null',
    async run({ store, tenant, users }) {
      await store.create(tenant, users.make());
      check.equal(await store.get(tenant, 'no-such-id'), null, 'get of an unknown id');
    },
  },
  {
    id: 'replace.with-current-version',
    title: 'replace with the stored version succeeds and get returns the new user',
    async run({ store, tenant, users }) {
      const user = users.make({ externalId: 'ext-1', roles: [{ value: 'teacher' }] });
      await store.create(tenant, user);
      const next = users.next(user, { displayName: 'Ada King', active: true, roles: [] });
      delete next.externalId;
      check.equal(
        await store.replace(tenant, next, { expectedVersion: user.meta.version }),
        true,
        'replace',
      );
      check.sameUsers(await store.get(tenant, user.id), next, 'get after replace');
    },
  },
  {
    id: 'replace.stale-version-conflicts',
    title: 'replace with a stale version throws versionConflict (412) and changes nothing',
    async run({ store, tenant, users, read }) {
      const user = users.make();
      await store.create(tenant, user);
      const next = users.next(user, { displayName: 'Changed' });
      await check.rejects(
        store.replace(tenant, next, { expectedVersion: 'W/"0"' }),
        412,
        undefined,
        'stale replace',
      );
      check.sameUsers(await read(user.id), user, 'user after a stale replace');
    },
  },
  {
    id: 'replace.missing-is-false',
    title: 'replace of an unknown id resolves to false and creates nothing',
    async run({ store, tenant, users }) {
      const ghost = users.make();
      const result = await store.replace(tenant, users.next(ghost), {
        expectedVersion: ghost.meta.version,
      });
      check.equal(result, false, 'replace of an unknown id');
      check.equal(await store.get(tenant, ghost.id), null, 'get after replacing an unknown id');
      check.equal(
        (await store.list(tenant, { startIndex: 1, count: 10 })).totalResults,
        0,
        'totalResults',
      );
    },
  },
  {
    id: 'delete.without-version',
    title: 'delete without an expected version removes the user',
    async run({ store, tenant, users }) {
      const user = users.make();
      await store.create(tenant, user);
      check.equal(await store.delete(tenant, user.id), true, 'delete');
      check.equal(await store.get(tenant, user.id), null, 'get after delete');
    },
  },
  {
    id: 'delete.with-current-version',
    title: 'delete with the stored version removes the user',
    async run({ store, tenant, users }) {
      const user = users.make();
      await store.create(tenant, user);
      check.equal(
        await store.delete(tenant, user.id, { expectedVersion: user.meta.version }),
        true,
        'delete',
      );
      check.equal(await store.get(tenant, user.id), null, 'get after delete');
    },
  },
  {
    id: 'delete.stale-version-conflicts',
    title: 'delete with a stale version throws versionConflict (412) and keeps the user',
    async run({ store, tenant, users, read }) {
      const user = users.make();
      await store.create(tenant, user);
      await check.rejects(
        store.delete(tenant, user.id, { expectedVersion: 'W/"0"' }),
        412,
        undefined,
        'stale delete',
      );
      check.sameUsers(await read(user.id), user, 'user after a stale delete');
    },
  },
  {
    id: 'delete.missing-is-false',
    title: 'delete of an unknown id, or of a user already deleted, resolves to false',
    async run({ store, tenant, users }) {
      check.equal(await store.delete(tenant, 'no-such-id'), false, 'delete of an unknown id');
      const user = users.make();
      await store.create(tenant, user);
      await store.delete(tenant, user.id);
      check.equal(await store.delete(tenant, user.id), false, 'second delete');
    },
  },
];
