// The smallest useful UserStore: users in a Map per tenant, filters answered by scimkit's own
// evaluator, and no event log, for a host that sends no welcome email (`createScim` without
// a `mailer`). One process, and a scan per write: a database store keeps the same rules with a
// unique index on the userName key. In your project, import from 'scimkit' and 'scimkit/filter'.
import type { DeleteOptions, ListQuery, ListResult, ReplaceOptions } from '../../src/index.js';
import { scimErrors, userNameKey, userResourceType } from '../../src/index.js';
import type { ScimUser, UserStore } from '../../src/index.js';
import { compileFilter } from '../../src/filter/index.js';

/** Keeps users in memory, with no event log: a complete {@link UserStore} in some fifty lines. */
export class MapUserStore implements UserStore {
  readonly #tenants = new Map<string, Map<string, ScimUser>>();

  #users(tenant: string): Map<string, ScimUser> {
    let users = this.#tenants.get(tenant);
    if (!users) this.#tenants.set(tenant, (users = new Map()));
    return users;
  }

  // Stores a copy of `user` unless another user of the tenant has its userName's key: one
  // identity whatever the case (scimkit's key, never toLowerCase).
  #put(tenant: string, user: ScimUser): void {
    const users = this.#users(tenant);
    const key = userNameKey(user.userName);
    for (const other of users.values()) {
      if (other.id !== user.id && userNameKey(other.userName) === key)
        throw scimErrors.uniqueness(`userName "${user.userName}" is already taken.`);
    }
    users.set(user.id, structuredClone(user));
  }

  async create(tenant: string, user: ScimUser): Promise<void> {
    this.#put(tenant, user);
  }

  async get(tenant: string, id: string): Promise<ScimUser | null> {
    const user = this.#users(tenant).get(id);
    return user ? structuredClone(user) : null;
  }

  async replace(tenant: string, user: ScimUser, options: ReplaceOptions): Promise<boolean> {
    const stored = this.#users(tenant).get(user.id);
    if (!stored) return false;
    if (stored.meta.version !== options.expectedVersion) throw scimErrors.versionConflict();
    this.#put(tenant, user);
    return true;
  }

  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    const stored = this.#users(tenant).get(id);
    const expected = options?.expectedVersion;
    if (stored && expected !== undefined && expected !== stored.meta.version)
      throw scimErrors.versionConflict();
    return this.#users(tenant).delete(id);
  }

  async list(tenant: string, query: ListQuery): Promise<ListResult> {
    const { filter, resourceType = userResourceType() } = query;
    const matches = filter ? compileFilter(filter, resourceType) : () => true;
    const found = [...this.#users(tenant).values()].filter(matches);
    found.sort((a, b) => (a.id < b.id ? -1 : 1));
    const page = found.slice(query.startIndex - 1, query.startIndex - 1 + query.count);
    return { totalResults: found.length, resources: structuredClone(page) };
  }
}
