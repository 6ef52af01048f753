import type { DeleteOptions, ListQuery, StorePage } from '../../contracts/store-query.js';
import { scimErrors } from '../../errors/index.js';
import type { CompiledResourceType } from '../../schema/resource-type.js';
import { compileSqlFilter } from './compile-sql-filter.js';
import { eventsParam } from './event-statements.js';
import type { ResourceTable } from './filter-targets.js';
import type { GroupsFilterContext } from './groups-filter-sql.js';
import { keysetPage } from './keyset-page.js';
import { pageStatement, type PageSource } from './page-statement.js';
import type { QueryExecutor } from './query-executor.js';
import { settleWrite, type WriteOutcome } from './settle-write.js';
import { sortKey } from './sort-key.js';
import type { StoreContext } from './store-context.js';
import { UnsupportedFilterError } from './unsupported-filter.js';

/** A row as `get` and the page statements read it: the document, and what the page adds. */
export interface TableRow {
  readonly doc: Record<string, unknown> | null;
  /** The group's members (a JSON array or NULL), when the statement reads them. */
  readonly members?: unknown;
  /** The user's direct groups (see `groupsColumn`), when the statement reads them. */
  readonly groups?: unknown;
}

/**
 * The texts of one delete: `plain`, and `events`, which also records the write's events (a
 * jsonb array, the parameter after the delete's own) exactly when it deletes the row.
 */
export interface DeleteTexts {
  readonly plain: string;
  readonly events: string;
}

/** The statements that delete one row; their first parameters are the row's key (`key`). */
export interface DeleteStatements {
  /**
   * Deletes the row when its version is the next parameter (or that parameter is NULL) and
   * reports a `WriteOutcome`.
   */
  readonly versioned: DeleteTexts;
  /** Deletes the row whatever its version, `RETURNING` a row when it did; used when set. */
  readonly any?: DeleteTexts;
}

/** What one resource type's table is to {@link PostgresTable}. */
export interface TableSpec<R> {
  readonly context: StoreContext;
  /** Where each attribute lives, for the filter, sort and keyset compilers. */
  readonly table: ResourceTable;
  /** The resource type paths resolve in when a query carries none (a host type's always does). */
  readonly defaultType?: CompiledResourceType;
  /** The table (and what each row adds) a page of `query` reads, and its unfiltered count. */
  readonly page: (query: ListQuery) => PageSource;
  /** Turns a row read by `get` or a page into the resource returned. */
  readonly resource: (row: TableRow) => R;
  /** The parameters naming one row: the tenant, then its id (and a shared table's type name). */
  readonly key: (tenant: string, id: string) => unknown[];
  /** The statements `delete` sends. */
  readonly deletes: DeleteStatements;
  /** What a filter on the User's `groups` reads, for a table whose filters can name them. */
  readonly groups?: (tenant: string) => GroupsFilterContext;
  /** Whether a filtered page's text repeats enough to be prepared (an indexed equality). */
  readonly prepareFiltered?: (query: ListQuery) => boolean;
  /**
   * Runs after a row is deleted, in the delete's transaction, given the delete's options:
   * removes what the resource is part of (its memberships, with their events). When set,
   * `delete` runs in one transaction.
   */
  readonly afterDelete?: (
    tx: QueryExecutor,
    tenant: string,
    id: string,
    options: DeleteOptions | undefined,
  ) => Promise<void>;
}

/**
 * The skeleton every PostgreSQL store shares for one resource type's table: read one row,
 * answer a page (by offset or by keyset, filtered and sorted in SQL, with its count), and
 * delete a row at its version. The users, groups and host-type stores are this skeleton with
 * their table's statements and columns, plus the writes only they have.
 *
 * @internal
 */
export class PostgresTable<R> {
  constructor(private readonly spec: TableSpec<R>) {}

  /** Reads one row with the statement `text` (the row's key its parameters), or `null`. */
  async get(text: string, tenant: string, id: string): Promise<R | null> {
    const rows = await this.spec.context.query<TableRow>(text, this.spec.key(tenant, id));
    return rows[0] ? this.spec.resource(rows[0]) : null;
  }

  /** Answers one page in SQL: the query's filter and sort, by offset or by keyset. */
  async list(tenant: string, query: ListQuery): Promise<StorePage<R>> {
    const { context, table, resource } = this.spec;
    const type = query.resourceType ?? this.spec.defaultType;
    if (!type) throw new Error('PostgresTable: a query of a host type carries its resource type.');
    const page = this.spec.page(query);
    const groups = this.spec.groups?.(tenant);
    const filter = (first: number) =>
      query.filter && compileSqlFilter(query.filter, first, type, groups, table);
    try {
      if (query.seek) {
        const source = { context, page, table, type, filter, resource };
        return await keysetPage(source, tenant, query, query.seek);
      }
      const params: unknown[] = [tenant, query.count, query.startIndex - 1];
      const compiled = filter(params.length + 1);
      if (compiled) params.push(...compiled.params);
      const sort = query.sortBy && {
        key: sortKey(query.sortBy, type, table),
        descending: query.sortOrder === 'descending',
      };
      const text = pageStatement(page, compiled?.sql, sort || undefined);
      // LIKE patterns deserve a plan for their actual value (a prefix can use an index), and
      // free-form filter shapes must not fill the connection's statement cache.
      const prepare = (!compiled && !sort) || (this.spec.prepareFiltered?.(query) ?? false);
      const rows = await context.query<TableRow & { total: number }>(text, params, prepare);
      const resources: R[] = [];
      for (const row of rows) if (row.doc !== null) resources.push(resource(row));
      return { totalResults: Number(rows[0]?.total ?? 0), resources };
    } catch (error) {
      // The core checked the filter and sort against the type: a path the compilers still
      // cannot express answers a precise 400, not a 500.
      if (error instanceof UnsupportedFilterError) throw scimErrors.invalidFilter(error.message);
      throw error;
    }
  }

  /**
   * Deletes a row (only at `options.expectedVersion`, when given: else 412) and records
   * `options.events` in the same statement, then runs `afterDelete` in the same transaction;
   * `false` when there is no such row.
   */
  async delete(tenant: string, id: string, options: DeleteOptions | undefined): Promise<boolean> {
    const { context, afterDelete } = this.spec;
    const expectedVersion = options?.expectedVersion;
    const logged = eventsParam(options?.events);
    if (!afterDelete)
      return this.deleteRow(
        (text, params) => context.query(text, params),
        tenant,
        id,
        expectedVersion,
        logged,
      );
    // The follow-up is a second statement of the same transaction: it sees a membership
    // committed while the delete waited for the row, which the first one's snapshot cannot.
    return context.transaction(async (tx) => {
      const run: Run = (text, params) => tx.query(text, params, { prepare: true });
      const deleted = await this.deleteRow(run, tenant, id, expectedVersion, logged);
      if (deleted) await afterDelete(tx, tenant, id, options);
      return deleted;
    });
  }

  private async deleteRow(
    run: Run,
    tenant: string,
    id: string,
    expectedVersion: string | undefined,
    events: string | undefined,
  ): Promise<boolean> {
    const key = this.spec.key(tenant, id);
    const withEvents = (params: unknown[]) => (events === undefined ? params : [...params, events]);
    const text = (texts: DeleteTexts) => (events === undefined ? texts.plain : texts.events);
    const { versioned, any } = this.spec.deletes;
    if (expectedVersion === undefined && any !== undefined)
      return (await run(text(any), withEvents(key))).length > 0;
    const outcome = await run<WriteOutcome>(
      text(versioned),
      withEvents([...key, expectedVersion ?? null]),
    );
    return settleWrite(outcome[0]);
  }
}

/** Runs one statement of a delete, on the store's context or in its transaction. */
type Run = <T = Record<string, unknown>>(text: string, params: unknown[]) => Promise<T[]>;
