import type {
  ResourceCreateOptions,
  ResourceListQuery,
  ResourceListResult,
  ResourceReplaceOptions,
  ResourceStore,
  ScimResource,
  UniqueKeys,
} from '../../contracts/resource-store.js';
import type { DeleteOptions, StoreCapabilities } from '../../contracts/store-query.js';
import { ScimConfigError, scimErrors } from '../../errors/index.js';
import { previewJson } from '../../json/preview-json.js';
import { isAttributeName } from '../../schema/attribute-path.js';
import type { EventLog } from '../../contracts/event-log.js';
import { eventsParam } from './event-statements.js';
import { foldedJson } from './folded-json.js';
import { PostgresEventLog } from './postgres-event-log.js';
import type { MigrateResult } from './migrate.js';
import { PostgresTable } from './postgres-table.js';
import type { PostgresUserStoreOptions } from './postgres-user-store.js';
import type { QueryExecutor } from './query-executor.js';
import {
  RESOURCES_TABLE,
  resourcesPage,
  resourceStatements,
  type ResourceStatements,
} from './resource-statements.js';
import { restoreOrder } from './restore-order.js';
import { settleWrite, type WriteOutcome } from './settle-write.js';
import { storeStatementTimeout } from './statement-timeout.js';
import { StoreContext } from './store-context.js';

/** Options of {@link PostgresResourceStore}. */
export interface PostgresResourceStoreOptions extends PostgresUserStoreOptions {
  /**
   * The name of the resource type the store keeps, as registered in `createScim`'s
   * `resourceTypes` (`Class`): its rows of the shared table are those of this name.
   */
  readonly resourceType: string;
}

type Doc = Record<string, unknown>;

// The core holds type names to the attribute-name grammar (RFC 7643 §2.1): safe as a literal.
const isTypeName = (name: string) => name.length <= 100 && isAttributeName(name);
/** The SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';

const readDoc = (doc: Doc) => restoreOrder(doc) as unknown as ScimResource;

/**
 * The columns a write sends after tenant, type and id: version, created, lastModified, doc and
 * its folded copy.
 */
const columns = (resource: ScimResource) => [
  resource.meta.version,
  resource.meta.created,
  resource.meta.lastModified,
  JSON.stringify(resource),
  foldedJson(resource),
];

/**
 * Keeps the resources of one resource type a host registers (`createScim`'s `resourceTypes`)
 * in PostgreSQL, through `pg` or PGlite, beside the users and groups: each resource a jsonb
 * document in one table shared by the host's types (keyed by tenant, type and id), its unique
 * keys one row each in a second table whose primary key lets one resource of the tenant hold a
 * key (a race for a key has exactly one winner, the other gets 409), `replace` and `delete`
 * conditional on the stored version, each write atomic (one statement, or one transaction when
 * it takes or frees keys) with its events. `list` answers every
 * filter and sort in SQL through the same compilers as the user and group stores, resolved in
 * the compiled type the query carries (extension attributes under their URN, multi-valued
 * attributes by any element, `meta.created` / `meta.lastModified` on timestamp columns), and
 * pages by keyset for RFC 9865 cursors. One store per resource type, as with the memory store.
 *
 * @example
 * ```ts
 * import { PGlite } from '@electric-sql/pglite';
 * import { PostgresResourceStore, PostgresUserStore, pgliteExecutor } from 'scimkit/postgres';
 *
 * const executor = pgliteExecutor(await PGlite.create('./data'));
 * createScim({
 *   store: new PostgresUserStore({ executor, migrate: true }), verifier, mailer,
 *   resourceTypes: [{
 *     name: 'Class', endpoint: '/Classes', schema: classSchema,
 *     store: new PostgresResourceStore({ executor, resourceType: 'Class', migrate: true }),
 *   }],
 * });
 * ```
 */
export class PostgresResourceStore implements ResourceStore {
  /**
   * Every filter and sort: the core checks them against the type's schemas and the compilers
   * express whatever passes (a path they could not would answer 400, never a wrong page).
   * Pages by keyset.
   */
  readonly capabilities: StoreCapabilities = { supportsSort: () => true, keysetPaging: true };
  /** The name of the resource type kept. */
  readonly resourceType: string;
  /**
   * The directory event log of the store's table location (migration 8), the same one as the
   * `PostgresUserStore` of that location: each write records its events in its transaction.
   */
  readonly events: EventLog;
  private readonly context: StoreContext;
  private readonly sql: ResourceStatements;
  private readonly rows: PostgresTable<ScimResource>;

  /**
   * @throws ScimConfigError for a type name that is not an attribute name, a bad location, or a
   * bad `statementTimeoutMs`.
   */
  constructor(options: PostgresResourceStoreOptions) {
    if (typeof options.resourceType !== 'string' || !isTypeName(options.resourceType))
      throw new ScimConfigError(
        `PostgresResourceStore: resourceType ${previewJson(options.resourceType)} must be a ` +
          'resource type name (an attribute name of at most 100 characters).',
      );
    this.resourceType = options.resourceType;
    this.context = new StoreContext(
      options.executor,
      options,
      options.migrate ?? false,
      storeStatementTimeout(options.statementTimeoutMs, 'PostgresResourceStore'),
    );
    this.sql = resourceStatements(this.context.tables);
    this.events = new PostgresEventLog(this.context);
    const page = resourcesPage(this.context.tables, this.resourceType);
    this.rows = new PostgresTable({
      context: this.context,
      table: RESOURCES_TABLE,
      page: () => page,
      resource: (row) => readDoc(row.doc as Doc),
      key: (tenant, id) => [tenant, this.resourceType, id],
      deletes: { versioned: this.sql.delete },
    });
  }

  /** Applies pending migrations now (for example at start, to fail fast on a bad database). */
  migrate(): Promise<MigrateResult> {
    return this.context.migrate();
  }

  /** Stores a new resource; throws 409 `uniqueness` when another holds one of its keys. */
  async create(tenant: string, resource: ScimResource, options: ResourceCreateOptions) {
    const row = [tenant, this.resourceType, resource.id];
    const events = eventsParam(options.events, resource);
    const [text, params] =
      events === undefined
        ? [this.sql.insert, [...row, ...columns(resource)]]
        : [this.sql.insertWithEvents, [...row, ...columns(resource), events]];
    try {
      // Without unique keys, the insert (its events with it) is the whole write.
      if (Object.keys(options.uniqueKeys).length === 0) await this.context.query(text, params);
      else
        await this.context.transaction(async (tx) => {
          await tx.query(text, params, { prepare: true });
          await this.holdKeys(tx, row, options.uniqueKeys, false);
        });
    } catch (error) {
      const { code } = (error ?? {}) as { code?: unknown };
      if (code === UNIQUE_VIOLATION)
        throw scimErrors.uniqueness(`A ${this.resourceType} with this id already exists.`);
      throw error;
    }
  }

  /** Reads a resource of the tenant, or `null`. */
  async get(tenant: string, id: string): Promise<ScimResource | null> {
    return this.rows.get(this.sql.get, tenant, id);
  }

  /** Replaces a resource at `expectedVersion` (412 when stale); `false` when it is gone. */
  async replace(
    tenant: string,
    resource: ScimResource,
    options: ResourceReplaceOptions,
  ): Promise<boolean> {
    const row = [tenant, this.resourceType, resource.id];
    const params = [...row, ...columns(resource), options.expectedVersion];
    const events = eventsParam(options.events, resource);
    const [text, all] =
      events === undefined
        ? [this.sql.replace, params]
        : [this.sql.replaceWithEvents, [...params, events]];
    return this.context.transaction(async (tx) => {
      // The update locks the row: the keys change under that lock, or not at all.
      const outcome = await tx.query<WriteOutcome>(text, all, { prepare: true });
      if (!settleWrite(outcome[0])) return false;
      await this.holdKeys(tx, row, options.uniqueKeys, true);
      return true;
    });
  }

  /** Deletes a resource and its keys (at `expectedVersion` when given); `false` when gone. */
  async delete(tenant: string, id: string, options?: DeleteOptions): Promise<boolean> {
    return this.rows.delete(tenant, id, options);
  }

  /** Answers one page in SQL: the query's filter and sort, by index or by keyset. */
  async list(tenant: string, query: ResourceListQuery): Promise<ResourceListResult> {
    return this.rows.list(tenant, query);
  }

  /**
   * Makes the resource of `row` hold `keys` (and, with `release`, no other), in the caller's
   * transaction; 409 when another resource holds one. Taking keys waits for the tenant's other
   * key-taking writes of the type: with freeing and taking in one order, two writes that swap
   * keys get one after the other (a 409, or both through) rather than a deadlock.
   */
  private async holdKeys(
    tx: QueryExecutor,
    row: unknown[],
    keys: UniqueKeys,
    release: boolean,
  ): Promise<void> {
    const names = Object.keys(keys);
    const prepare = { prepare: true };
    if (names.length > 0) await tx.query(this.sql.lockKeys, row.slice(0, 2), prepare);
    if (release) await tx.query(this.sql.releaseKeys, row, prepare);
    if (names.length === 0) return;
    const values = names.map((name) => keys[name] as string);
    // A key another transaction holds uncommitted waits for it: one of two racing writes wins.
    const taken = await tx.query<{ attribute: string }>(
      this.sql.takeKeys,
      [...row, names, values],
      prepare,
    );
    if (taken.length === names.length) return;
    const held = new Set(taken.map((t) => t.attribute));
    const name = names.find((n) => !held.has(n)) as string;
    throw scimErrors.uniqueness(`"${name}" ${previewJson(keys[name])} is already taken.`);
  }
}
