import type { ScimUser } from '../../schema/user-resource.js';
import { check } from '../assertions.js';
import type { StoreConformanceCase } from '../types.js';

/** Changes a user in place, deep inside, as a careless caller would. */
function scribble(user: ScimUser): void {
  user.userName = 'scribbled@example.org';
  if (user.name) user.name.givenName = 'Scribbled';
  user.emails?.push({ value: 'extra@example.org' });
  const first = user.emails?.[0];
  if (first) first.value = 'changed@example.org';
  user.meta.version = 'W/"999"';
}

/**
 * Scribbles on a user the store handed out. A store may hand out copies (the scribbling has no
 * effect on it) or deeply frozen users (the scribbling throws a TypeError): both keep stored
 * state safe.
 */
function scribbleHandedOut(user: ScimUser): void {
  try {
    scribble(user);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

/** No caller can change stored state by mutating objects given to or handed out by the store. */
export const copyCases: readonly StoreConformanceCase[] = [
  {
    id: 'copies.get-returns-a-copy',
    title: 'mutating a user returned by get does not change the stored user (or throws)',
    async run({ store, tenant, users }) {
      const user = users.make();
      await store.create(tenant, user);
      const returned = await store.get(tenant, user.id);
      check.ok(returned, 'get after create returned null');
      scribbleHandedOut(returned);
      check.sameUsers(await store.get(tenant, user.id), user, 'get after mutating a returned user');
    },
  },
  {
    id: 'copies.create-copies-its-input',
    title: 'mutating the object given to create afterwards does not change the stored user',
    async run({ store, tenant, users }) {
      const user = users.make();
      const given = structuredClone(user);
      await store.create(tenant, given);
      scribble(given);
      check.sameUsers(await store.get(tenant, user.id), user, 'get after mutating the input');
    },
  },
  {
    id: 'copies.replace-copies-its-input',
    title: 'mutating the object given to replace afterwards does not change the stored user',
    async run({ store, tenant, users }) {
      const user = users.make();
      await store.create(tenant, user);
      const next = users.next(user, { displayName: 'Next' });
      const given = structuredClone(next);
      await store.replace(tenant, given, { expectedVersion: user.meta.version });
      scribble(given);
      check.sameUsers(await store.get(tenant, user.id), next, 'get after mutating the input');
    },
  },
  {
    id: 'copies.list-returns-copies',
    title: 'mutating users returned by list does not change the stored users (or throws)',
    async run({ store, tenant, users }) {
      const user = users.make();
      await store.create(tenant, user);
      const page = await store.list(tenant, { startIndex: 1, count: 10 });
      const returned = page.resources[0];
      check.ok(returned, 'list returned no user');
      scribbleHandedOut(returned);
      check.sameUsers(await store.get(tenant, user.id), user, 'get after mutating a listed user');
      const filtered = await store.list(tenant, {
        startIndex: 1,
        count: 10,
        filter: { kind: 'compare', path: { attribute: 'id' }, op: 'eq', value: user.id },
      });
      if (filtered.resources[0]) scribbleHandedOut(filtered.resources[0]);
      check.sameUsers(await store.get(tenant, user.id), user, 'get after mutating a filtered user');
    },
  },
];
