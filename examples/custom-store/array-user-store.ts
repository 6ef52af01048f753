// A deliberately naive UserStore: every user of every tenant in one array, every lookup a scan.
// It is here to show the contract and the conformance harness, not to be used: prefer
// MemoryUserStore (indexed) or the PostgreSQL store. In your project, import from 'scimkit' and
// 'scimkit/filter'.
import type {
  DeleteOptions,
  ListQuery,
  ListResult,
  ReplaceOptions,
  ScimUser,
  UserStore,
} from '../../src/index.js';
import { scimErrors, userNameKey } from '../../src/index.js';
import type { Filter } from '../../src/filter/index.js';

type Row = { tenant: string; user: ScimUser };

const copy = <T>(value: T): T => structuredClone(value);
// One identity whatever the case and normal form: scimkit's key, never toLowerCase.
const sameName = (a: string, b: string) => userNameKey(a) === userNameKey(b);

/** Answers `userName`, `id` and `externalId` eq, and `and` of them; declares nothing else. */
function test(filter: Filter, user: ScimUser): boolean {
  if (filter.kind === 'and') return test(filter.left, user) && test(filter.right, user);
  if (filter.kind !== 'compare' || typeof filter.value !== 'string') return false;
  if (filter.path.attribute === 'userName') return sameName(user.userName, filter.value);
  return user[filter.path.attribute] === filter.value;
}
const simple = (f: Filter): boolean =>
  f.kind === 'and'
    ? simple(f.left) && simple(f.right)
    : f.kind === 'compare' &&
      f.op === 'eq' &&
      !f.path.schema &&
      !f.path.subAttribute &&
      ['userName', 'id', 'externalId'].includes(f.path.attribute);

/** Stores users in one array; a naive but correct {@link UserStore}. */
export class ArrayUserStore implements UserStore {
  private rows: Row[] = [];
  readonly capabilities = { supportsFilter: simple };

  private find(tenant: string, id: string) {
    return this.rows.find((row) => row.tenant === tenant && row.user.id === id);
  }

  private checkName(tenant: string, user: ScimUser) {
    const taken = this.rows.some(
      (row) =>
        row.tenant === tenant &&
        row.user.id !== user.id &&
        sameName(row.user.userName, user.userName),
    );
    if (taken) throw scimErrors.uniqueness(`userName "${user.userName}" is already taken.`);
  }

  async create(tenant: string, user: ScimUser): Promise<void> {
    this.checkName(tenant, user);
    this.rows.push({ tenant, user: copy(user) });
  }

  async get(tenant: string, id: string): Promise<ScimUser | null> {
    const row = this.find(tenant, id);
    return row ? copy(row.user) : null;
  }

  async replace(tenant: string, user: ScimUser, options: ReplaceOptions): Promise<boolean> {
    const row = this.find(tenant, user.id);
    if (!row) return false;
    if (row.user.meta.version !== options.expectedVersion) throw scimErrors.versionConflict();
    this.checkName(tenant, user);
    row.user = copy(user);
    return true;
  }

  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    const row = this.find(tenant, id);
    if (!row) return false;
    const expected = options?.expectedVersion;
    if (expected !== undefined && row.user.meta.version !== expected)
      throw scimErrors.versionConflict();
    this.rows = this.rows.filter((other) => other !== row);
    return true;
  }

  async list(tenant: string, query: ListQuery): Promise<ListResult> {
    const { filter } = query;
    const found = this.rows
      .filter((row) => row.tenant === tenant && (!filter || test(filter, row.user)))
      .map((row) => row.user)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const start = query.startIndex - 1;
    return { totalResults: found.length, resources: copy(found.slice(start, start + query.count)) };
  }
}
