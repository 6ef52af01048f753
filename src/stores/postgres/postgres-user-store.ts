import type { GroupStore } from '../../contracts/group-store.js';
import type {
  DeleteOptions,
  ListQuery,
  ListResult,
  ReplaceOptions,
  StoreCapabilities,
  UserStore,
  WriteEffects,
} from '../../contracts/user-store.js';
import type { AttributePath, Filter } from '../../filter/ast.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import type { ScimUser } from '../../schema/user-resource.js';
import { userNameKey } from '../../schema/user-name-key.js';
import { compileSqlFilter } from './compile-sql-filter.js';
import type { GroupsFilterContext } from './groups-filter-sql.js';
import { groupsAttribute } from '../user-group-paths.js';
import { userResourceType } from '../../schema/user-resource-type.js';
import type { MigrateResult } from './migrate.js';
import { PostgresGroupStore } from './postgres-group-store.js';
import { PostgresSubscriptionStore } from './postgres-subscription-store.js';
import type { QueryExecutor } from './query-executor.js';
import { restoreOrder } from './restore-order.js';
import { storeStatementTimeout } from './statement-timeout.js';
import { StoreContext } from './store-context.js';
import { foldedJson } from './folded-json.js';
import { groupsFromColumn } from './groups-with-user.js';
import type { TableLocation } from './table-names.js';
import { toStoreError } from './to-store-error.js';
import { sortKey } from './sort-key.js';
import { isIndexedEquality, matchesAtMostOne } from './filter-shapes.js';
import { settleWrite, type WriteOutcome } from './settle-write.js';
import type { EventLog } from '../../contracts/event-log.js';
import { eventsParam } from './event-statements.js';
import { PostgresEventLog } from './postgres-event-log.js';
import { compiles } from './unsupported-filter.js';
import { userStatements, writeText, type UserStatements } from './user-statements.js';
import { USERS_TABLE } from './filter-targets.js';
import { usersPage } from './page-statement.js';
import { PostgresTable } from './postgres-table.js';
import { LEFT_OUT, StatementBatches } from './statement-batches.js';

/** Options of {@link PostgresUserStore}. */
export interface PostgresUserStoreOptions extends TableLocation {
  /** Runs the SQL: {@link pgExecutor} for a `pg` pool, {@link pgliteExecutor} for PGlite. */
  readonly executor: QueryExecutor;
  /**
   * Runs {@link migrate} before the first statement. Default `false`: the host migrates at
   * deploy time (or calls {@link PostgresUserStore.migrate} at start).
   */
  readonly migrate?: boolean;
  /**
   * The longest one statement of a request may run, in milliseconds, on a PostgreSQL server
   * (`statement_timeout`; each statement of a transaction has its own). Default 5000. A
   * statement past it is cancelled, its transaction rolled back, and the request answered 503
   * with `Retry-After`. `0` leaves the server's own setting. PGlite cannot cancel a running
   * statement and ignores it.
   */
  readonly statementTimeoutMs?: number;
}

type Doc = Record<string, unknown>;

/**
 * The user of a read's row, with its `groups` from the groups column read in the same
 * statement (see `groupsFromColumn`) when that is the whole answer: none of the direct groups
 * is itself in a group. Otherwise they are left off, and the core reads the indirect groups
 * apart.
 */
const userOf = (row: { readonly doc: unknown; readonly groups?: unknown }): ScimUser =>
  restoreOrder(row.doc as Doc, groupsFromColumn(row.groups));

/** A user as a read returns it: its document and its groups column. */
interface UserRow {
  readonly doc: Doc;
  readonly groups: unknown;
}

/** A user's tenant and a key it is read by: its id, or its userName's key. */
type UserKey = readonly [string, string];

/**
 * The compiled filter of `userName eq`: the lookups by a userName's key, which the store answers
 * several to a statement.
 */
const BY_USER_NAME_KEY = 'user_name_key = $2';

/**
 * A user write: its statement's parameters ($1 to $10, and $11 the version a replace expects)
 * and its events' parameter.
 */
interface UserWrite {
  readonly params: readonly unknown[];
  readonly events: string | undefined;
}

/** The row a write writes, as a key: its tenant and id. */
const rowOf = (params: readonly unknown[]) => `${String(params[0])}\u0000${String(params[1])}`;

/**
 * A user write as an element of the array of `insertMany` or `replaceMany`; its JSON columns are
 * already texts. A write without events has no `events` member (SQL `NULL`, no rows), not a JSON
 * `null`.
 */
function manyRow({ params, events }: UserWrite): string {
  const [tenant, id, userName, key, externalId, version, created, lastModified, doc, folded] =
    params;
  const columns = { tenant, id, userName, key, externalId, version, created, lastModified };
  const members = Object.entries(columns).map(
    ([name, value]) => `"${name}":${JSON.stringify(value)}`,
  );
  members.push(`"doc":${doc as string}`, `"folded":${folded as string}`);
  if (params.length > 10) members.push(`"expected":${JSON.stringify(params[10])}`);
  if (events !== undefined) members.push(`"events":${events}`);
  return `{${members.join(',')}}`;
}

/** The columns every write sends, in statement order ($3 to $10). */
function userColumns(user: ScimUser): unknown[] {
  return [
    user.userName,
    userNameKey(user.userName),
    user.externalId ?? null,
    user.meta.version,
    user.meta.created,
    user.meta.lastModified,
    JSON.stringify(user),
    foldedJson(user),
  ];
}

/**
 * Keeps users in PostgreSQL (a server through `pg`, or PGlite in process). Each call is one
 * statement: writes are conditional on the stored version, userName is unique per tenant
 * regardless of case through a unique index on its key (`userNameKey`, computed here, never
 * by the database's locale), directory events are written in the same statement as their
 * user, and filters run in SQL.
 *
 * @example
 * ```ts
 * import pg from 'pg';
 * import { PostgresUserStore, pgExecutor } from 'scimkit/postgres';
 *
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const store = new PostgresUserStore({ executor: pgExecutor(pool), migrate: true });
 * const scim = createScim({ store, verifier, mailer });
 * ```
 */
export class PostgresUserStore implements UserStore {
  /**
   * Every filter and sort the compilers can express in SQL: every path of the User schemas
   * (and of the host's extensions, resolved with the query's resource type), no comparison on a
   * complex value; `groups` by `value` and `display` (not `type` or `$ref`), and no sort by
   * `groups`.
   */
  readonly capabilities: Required<StoreCapabilities> = {
    supportsFilter: (filter: Filter) =>
      compiles(() =>
        compileSqlFilter(filter, 1, this.defaultType, { tables: this.context.tables, tenant: '' }),
      ),
    // `groups` is computed from memberships, not kept in the document: nothing to order by.
    supportsSort: (path: AttributePath) =>
      groupsAttribute(path, this.defaultType) === undefined &&
      compiles(() => sortKey(path, this.defaultType)),
    keysetPaging: true,
    keptApart: [],
  };
  /** The groups and memberships (migration 4); a user's delete removes its memberships. */
  readonly groups: GroupStore;
  /**
   * The directory event log (migration 8): every write of users, groups and of the
   * `PostgresResourceStore`s of the same table location records its events in it, in the
   * write's transaction.
   */
  readonly events: EventLog;
  /** The delivery state of durable event subscribers (migration 9). */
  readonly subscriptions: PostgresSubscriptionStore;
  private readonly groupStore: PostgresGroupStore;
  /** The resource type paths resolve in when a query carries none. */
  private readonly defaultType = userResourceType();
  private readonly context: StoreContext;
  private readonly sql: UserStatements;
  private readonly rows: PostgresTable<ScimUser>;
  private readonly reads: StatementBatches<UserKey, ScimUser | null>;
  /** Lookups by a userName's key (`userName eq`), several to a statement: the users found. */
  private readonly byUserName: StatementBatches<UserKey, readonly UserRow[]>;
  private readonly creates: StatementBatches<UserWrite, void>;
  private readonly replaces: StatementBatches<UserWrite, boolean>;

  constructor(options: PostgresUserStoreOptions) {
    this.context = new StoreContext(
      options.executor,
      options,
      options.migrate ?? false,
      storeStatementTimeout(options.statementTimeoutMs, 'PostgresUserStore'),
    );
    this.sql = userStatements(this.context.tables);
    this.events = new PostgresEventLog(this.context);
    this.subscriptions = new PostgresSubscriptionStore(this.context);
    this.groups = this.groupStore = new PostgresGroupStore(this.context);
    const page = usersPage(this.context.tables);
    this.rows = new PostgresTable({
      context: this.context,
      table: USERS_TABLE,
      defaultType: this.defaultType,
      page: () => page,
      resource: userOf,
      key: (tenant, id) => [tenant, id],
      deletes: { versioned: this.sql.deleteVersioned, any: this.sql.delete },
      groups: (tenant) => this.groupsContext(tenant),
      prepareFiltered: isIndexedEquality,
      afterDelete: (tx, tenant, id, options) =>
        this.groupStore.forgetMember(tx, tenant, id, options),
    });
    this.reads = this.readsBy(
      this.sql.getMany,
      ([tenant, id]) => this.rows.get(this.sql.get, tenant, id),
      (rows) => (rows[0] ? userOf(rows[0]) : null),
    );
    this.byUserName = this.readsBy(
      this.sql.lookupManyByUserNameKey,
      ([tenant, key]) =>
        this.context.query<UserRow>(this.sql.lookup + BY_USER_NAME_KEY, [tenant, key]),
      (rows) => rows,
    );
    this.creates = this.writes(this.sql.insertMany, undefined, async ({ params, events }) => {
      const [text, all] = writeText(this.sql.insert, params, events);
      await this.context.query(text, all);
    });
    // A replace may meet a user another transaction holds: even alone, it runs the shared
    // statement, which waits for that user only briefly (see `replaceMany`).
    this.replaces = this.writes(
      this.sql.replaceMany,
      true,
      async ({ params, events }) => {
        const [text, all] = writeText(this.sql.replace, params, events);
        return settleWrite((await this.context.query<WriteOutcome>(text, all))[0]);
      },
      true,
    );
  }

  /**
   * Concurrent reads by a `[tenant, key]` pair, several to a statement (`many`, returning each
   * user found with its `tenant` and `key`; reads of one key share it, the key sent once); `one`
   * reads one alone, and `answer` makes a read's answer of the rows of its key.
   */
  private readsBy<R>(
    many: string,
    one: (key: UserKey) => Promise<R>,
    answer: (rows: readonly UserRow[]) => R,
  ): StatementBatches<UserKey, R> {
    return new StatementBatches<UserKey, R>({
      one,
      many: async (keys) => {
        const distinct = new Map(keys.map((key) => [rowOf(key), key]));
        const rows = await this.context.query<UserRow & { tenant: string; key: string }>(many, [
          JSON.stringify([...distinct.values()]),
        ]);
        const byKey = new Map<string, UserRow[]>();
        for (const row of rows) {
          const key = rowOf([row.tenant, row.key]);
          const found = byKey.get(key);
          if (found) found.push(row);
          else byKey.set(key, [row]);
        }
        return keys.map((key) => answer(byKey.get(rowOf(key)) ?? []));
      },
      sizeOf: () => 0,
    });
  }

  /**
   * Concurrent writes of one kind, several to a statement (`many`, see `StatementBatches`);
   * `one` writes one alone, and `written` is what a write the shared statement wrote answers.
   * `aloneShared`: a write that arrives alone runs `many` too (see `BatchedStatement`).
   */
  private writes<R>(
    many: string,
    written: R,
    one: (write: UserWrite) => Promise<R>,
    aloneShared = false,
  ): StatementBatches<UserWrite, R> {
    return new StatementBatches<UserWrite, R>({
      aloneShared,
      one,
      many: async (writes) => {
        const rows = await this.context.query<{ tenant: string; id: string }>(many, [
          `[${writes.map(manyRow).join(',')}]`,
        ]);
        const wrote = new Set(rows.map((row) => rowOf([row.tenant, row.id])));
        return writes.map(({ params }) => (wrote.has(rowOf(params)) ? written : LEFT_OUT));
      },
      sizeOf: ({ params, events }) =>
        (params[8] as string).length + (params[9] as string).length + (events?.length ?? 0),
      rowOf: ({ params }) => rowOf(params),
    });
  }

  /** Applies pending migrations now (for example at start, to fail fast on a bad database). */
  migrate(): Promise<MigrateResult> {
    return this.context.migrate();
  }

  /** Stores a new user; throws `scimErrors.uniqueness()` when its userName is taken. */
  async create(tenant: string, user: ScimUser, effects?: WriteEffects): Promise<void> {
    const params = [tenant, user.id, ...userColumns(user)];
    try {
      await this.creates.run({ params, events: eventsParam(effects?.events, user) });
    } catch (error) {
      throw toStoreError(error, this.context.tables, user.userName);
    }
  }

  /**
   * Returns the user, or `null`; with its `groups` when none of its direct groups is itself in
   * a group (see `userOf`).
   */
  async get(tenant: string, id: string): Promise<ScimUser | null> {
    return this.reads.run([tenant, id]);
  }

  /** Replaces a user at its expected version; `false` when there is no such user. */
  async replace(tenant: string, user: ScimUser, options: ReplaceOptions): Promise<boolean> {
    const params = [tenant, user.id, ...userColumns(user), options.expectedVersion];
    try {
      return await this.replaces.run({ params, events: eventsParam(options.events, user) });
    } catch (error) {
      throw toStoreError(error, this.context.tables, user.userName);
    }
  }

  /** Deletes a user and its memberships; `false` when there is no such user. */
  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    return this.rows.delete(tenant, id, options);
  }

  /** Answers one page of the tenant's users, in SQL. */
  async list(tenant: string, query: ListQuery): Promise<ListResult> {
    // The IdPs' `userName eq` probe: the plain indexed `SELECT`, without a count.
    if (!query.seek && query.filter && matchesAtMostOne(query.filter))
      return this.lookup(tenant, query.filter, query, query.resourceType ?? this.defaultType);
    return this.rows.list(tenant, query);
  }

  /** What a filter on `groups` reads: this store's membership tables, for `tenant`. */
  private groupsContext(tenant: string): GroupsFilterContext {
    return { tables: this.context.tables, tenant };
  }

  /**
   * Answers a filter at most one user can match (the IdPs' `userName eq` probe) with the
   * plain indexed `SELECT`: the total is the number of rows, and paging happens here.
   */
  private async lookup(
    tenant: string,
    filter: Filter,
    query: ListQuery,
    type: CompiledResourceType,
  ): Promise<ListResult> {
    const compiled = compileSqlFilter(filter, 2, type, this.groupsContext(tenant));
    const rows =
      compiled.sql === BY_USER_NAME_KEY
        ? await this.byUserName.run([tenant, compiled.params[0] as string])
        : await this.context.query<UserRow>(
            this.sql.lookup + compiled.sql,
            [tenant, ...compiled.params],
            isIndexedEquality(query),
          );
    const start = query.startIndex - 1;
    const page = rows.slice(start, start + query.count);
    const resources = page.map(userOf);
    return { totalResults: rows.length, resources };
  }
}
