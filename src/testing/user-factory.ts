import type { ScimUser } from '../schema/user-resource.js';
import type { UserFactory } from './types.js';
import { ACCOUNT_SCHEMA, USER_SCHEMA } from '../schema/urns.js';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Creates a {@link UserFactory} whose ids share a random prefix and end in a zero-padded
 * counter, so they sort in creation order as the core's ids do, and never collide with the ids
 * of another factory (which matters when a store under test is a shared database). The users
 * carry no tenant: a store keeps the tenant beside each user, so one factory serves them all.
 *
 * @example
 * ```ts
 * const users = createUserFactory();
 * const ada = users.make({ userName: 'ada@example.org' });
 * await store.create('tenant-a', ada);
 * await store.replace('tenant-a', users.next(ada, { active: true }), { expectedVersion: ada.meta.version });
 * ```
 */
export function createUserFactory(): UserFactory {
  const prefix = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  let counter = 0;
  const created = new Date().toISOString();
  return {
    make(overrides = {}) {
      counter += 1;
      const n = String(counter).padStart(8, '0');
      const userName = `user-${prefix}-${n}@example.org`;
      const user: ScimUser = {
        schemas: [USER_SCHEMA, ACCOUNT_SCHEMA],
        id: `${prefix}${n}`,
        userName,
        name: { givenName: 'Ada', familyName: `Lovelace ${n}` },
        displayName: `Ada Lovelace ${n}`,
        active: false,
        emails: [{ value: userName, type: 'work', primary: true }],
        [ACCOUNT_SCHEMA]: { status: 'Pending' },
        meta: { resourceType: 'User', created, lastModified: created, version: 'W/"1"' },
      };
      return copy({ ...user, ...overrides });
    },
    next(user, changes = {}) {
      const version = Number(/^W\/"(\d+)"$/.exec(user.meta.version)?.[1] ?? '1');
      const meta = {
        ...user.meta,
        lastModified: new Date().toISOString(),
        version: `W/"${version + 1}"`,
      };
      return copy({ ...user, ...changes, meta });
    },
  };
}
