import { insertEvents } from './event-statements.js';
import type { ResourceTable } from './filter-targets.js';
import type { PageSource } from './page-statement.js';
import type { DeleteTexts } from './postgres-table.js';
import type { TableNames } from './table-names.js';

/**
 * The SQL text of the statements of one host resource type, built once per store. `$1` is
 * always the tenant, `$2` the resource type's name, `$3` the resource's id.
 */
export interface ResourceStatements {
  /** $4 version, $5 created, $6 lastModified, $7 doc, $8 its folded copy. */
  readonly insert: string;
  /** As `insert` plus $9 the events (a jsonb array), recorded with the resource. */
  readonly insertWithEvents: string;
  readonly get: string;
  /**
   * As `insert` plus $9 the expected version; reports `changed` and the `current` version in
   * the statement's snapshot, as a user replace does.
   */
  readonly replace: string;
  /** As `replace` plus $10 the events, recorded only when it writes. */
  readonly replaceWithEvents: string;
  /**
   * $4 the expected version or NULL (then $5 the events); reports as `replace` does. The keys
   * go with the row.
   */
  readonly delete: DeleteTexts;
  /**
   * Serialises the writes that take keys within a tenant and type, so that two writes each
   * taking a key the other frees wait one for the other instead of deadlocking.
   */
  readonly lockKeys: string;
  /** Frees every key the resource holds (a replace then takes its new ones). */
  readonly releaseKeys: string;
  /** $4 attributes, $5 keys: takes the keys no one holds, returns the attributes taken. */
  readonly takeKeys: string;
}

/** Builds the statements of a host resource type's store for a table location. */
export function resourceStatements(t: TableNames): ResourceStatements {
  const row = 'tenant = $1 AND resource_type = $2 AND id = $3';
  // `cur` reads the version in the statement's snapshot, so a failed conditional write tells
  // "no such resource" from "stale version" without a second round trip.
  const cur = `cur AS (SELECT version FROM ${t.resources} WHERE ${row})`;
  const outcome = (cte: string) =>
    `SELECT (SELECT count(*) FROM ${cte})::int AS changed, (SELECT version FROM cur) AS current`;
  const insert = `INSERT INTO ${t.resources}
      (tenant, resource_type, id, version, created, last_modified, doc, folded)
      VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz, $7::jsonb, $8::jsonb)`;
  const upd = `upd AS (
        UPDATE ${t.resources} SET version = $4, created = $5::timestamptz,
          last_modified = $6::timestamptz, doc = $7::jsonb, folded = $8::jsonb
        WHERE ${row} AND version = $9
        RETURNING 1
      )`;
  const del = `del AS (
        DELETE FROM ${t.resources} WHERE ${row} AND ($4::text IS NULL OR version = $4)
        RETURNING 1
      )`;
  // The events of a write, recorded when the write's CTE `wrote` returns a row; `doc`, the SQL
  // of the document it stores, if it stores one.
  const events = (param: string, wrote: string, doc?: string) =>
    `, ev AS (${insertEvents(t, param, wrote, doc)})`;
  return {
    insert,
    insertWithEvents: `WITH r AS (${insert} RETURNING 1)${events('$9', 'r', '$7::jsonb')} SELECT 1 FROM r`,
    get: `SELECT doc FROM ${t.resources} WHERE ${row}`,
    replace: `WITH ${cur}, ${upd} ${outcome('upd')}`,
    replaceWithEvents: `WITH ${cur}, ${upd}${events('$10', 'upd', '$7::jsonb')} ${outcome('upd')}`,
    delete: {
      plain: `WITH ${cur}, ${del} ${outcome('del')}`,
      events: `WITH ${cur}, ${del}${events('$5', 'del')} ${outcome('del')}`,
    },
    lockKeys: `SELECT pg_advisory_xact_lock(hashtextextended('scimkit.resource_keys:' || $1 || ':' || $2, 0))`,
    releaseKeys: `DELETE FROM ${t.resourceKeys} WHERE ${row}`,
    takeKeys: `INSERT INTO ${t.resourceKeys} (tenant, resource_type, attribute, key, id)
      SELECT $1, $2, k.attribute, k.key, $3
      FROM unnest($4::text[], $5::text[]) AS k(attribute, key)
      ON CONFLICT DO NOTHING
      RETURNING attribute`,
  };
}

/**
 * The resources of one type as pages read them (see `pageStatement`): the type's rows of the
 * shared table, so filters, sort keys and keyset conditions name its columns bare. `name` is a
 * resource type name the store checked (an attribute name: letters, digits, `-`, `_`).
 */
export function resourcesPage(t: TableNames, name: string): PageSource {
  const from = `(SELECT tenant, id, created, last_modified, doc, folded FROM ${t.resources}
    WHERE resource_type = '${name}') AS r`;
  return { from, countAll: `(SELECT count(*) FROM ${from} WHERE tenant = $1)::int` };
}

/**
 * Describes a host type's rows to the filter and sort compilers (`compileSqlFilter`,
 * `sortKey`): `id` is the primary key's column, `meta.created` / `meta.lastModified` the
 * timestamp columns (as for every table), every other attribute of the type's schemas is
 * read from the document, as the compiled type resolves it.
 */
export const RESOURCES_TABLE: ResourceTable = {
  columns: { id: { column: 'id', nullable: false } },
};
