import { insertEvents } from './event-statements.js';
import { GROUP_ALIAS } from './group-filter.js';
import type { PageSource } from './page-statement.js';
import type { DeleteTexts } from './postgres-table.js';
import type { TableNames } from './table-names.js';

/**
 * The SQL text of the group statements, built once per store. None reads or writes more
 * member rows than the call names, except `getWithMembers` (a full read asked for),
 * `memberIds` (a replace that sends a whole new list) and `clearMembers` (a deleted group's
 * own rows).
 */
export interface GroupStatements {
  /** $1 tenant, $2 id, $3 displayName, $4 its key, $5 externalId, $6 version, $7 created, $8 lastModified, $9 doc, $10 its folded copy. */
  readonly insert: string;
  /** As `insert` plus $11 the events (a jsonb array), recorded with the group. */
  readonly insertWithEvents: string;
  readonly get: string;
  /** The group and its members (`members`, a JSON array in id order) in one snapshot. */
  readonly getWithMembers: string;
  /** As `insert` plus $11 the expected version; reports changed/current as a user replace does. */
  readonly replace: string;
  /** Locks the group row for a membership change and reads its version. */
  readonly lock: string;
  /** Serialises changes that add groups as members within a tenant (the cycle check). */
  readonly lockNesting: string;
  /** $2 ids: those that are users of the tenant, locked against a concurrent delete. */
  readonly usersAmong: string;
  /** $2 ids: those that are groups of the tenant, locked against a concurrent delete. */
  readonly groupsAmong: string;
  /** $2 group id, $3 candidate ids: a candidate that is the group or one of its ancestors. */
  readonly cycleAmong: string;
  /**
   * $2 group id, $3 ids, $4 types, $5 displays, $6 their foldings: inserts the new memberships,
   * returns their ids.
   */
  readonly addMembers: string;
  /** $2 group id, $3 ids: deletes those memberships, returns them. */
  readonly removeMembers: string;
  /** $2 group id, $3 lastModified: bumps the version (as `nextVersion` does) and the time. */
  readonly bump: string;
  /** $2 group id: the member ids, for a replace's diff. */
  readonly memberIds: string;
  /** $2 group id, $3 the id to start after or NULL, $4 count: one page of members by id. */
  readonly memberPage: string;
  /** $2 group ids, $3 count: the first members of each, as (group_id, member) rows by id. */
  readonly firstMembers: string;
  /** $2 group id, $3 expected version or NULL (then $4 the events): deletes the group row. */
  readonly deleteGroup: DeleteTexts;
  /** $2 group id: removes the group's own memberships. */
  readonly clearMembers: string;
  /** $2 member id, $3 lastModified: removes it from every group, bumps and returns (`id`) each. */
  readonly forgetMember: string;
  /** $2 member id: its direct groups. */
  readonly directGroups: string;
  /** $2 member id: its direct and indirect groups. */
  readonly allGroups: string;
  /**
   * $2 member ids: each one's direct groups, as (member_id, value, display, nested) rows;
   * `nested` says the group is itself in a group.
   */
  readonly directGroupsOfMany: string;
  /** $2 group ids: every group above each, as (start, value, display) rows. */
  readonly ancestorsOfMany: string;
}

/**
 * The next weak ETag in SQL, as `nextVersion` computes it in the core: `W/"n"` becomes
 * `W/"n+1"`, any other form restarts at `W/"2"`.
 */
const nextVersionSql = (column: string) =>
  `CASE WHEN ${column} ~ '^W/"[0-9]+"$'
    THEN 'W/"' || (substring(${column} FROM 4 FOR length(${column}) - 4)::numeric + 1)::text || '"'
    ELSE 'W/"2"' END`;

/** Builds the group statements for a table location. */
export function groupStatements(t: TableNames): GroupStatements {
  const next = nextVersionSql('version');
  // The stored document carries meta too: both change with the columns, and so does its
  // folded copy (both values are ASCII, which foldCase folds as lower() under "C" does).
  const meta = (doc: string, fold: (sql: string) => string) =>
    `jsonb_set(jsonb_set(${doc}, '{meta,version}', to_jsonb(${fold(next)})),
      '{meta,lastModified}', to_jsonb(${fold('$3::text')}))`;
  const bumpSet = `version = ${next}, last_modified = $3::text::timestamptz,
    doc = ${meta('doc', (sql) => sql)},
    folded = ${meta('folded', (sql) => `lower(${sql} COLLATE "C")`)}`;
  const insert = `INSERT INTO ${t.groups}
      (tenant, id, display_name, display_name_key, external_id, version, created, last_modified,
        doc, folded)
      VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8::timestamptz, $9::jsonb, $10::jsonb)`;
  const deleteGroup = (events: string) => `WITH cur AS (
        SELECT version FROM ${t.groups} WHERE tenant = $1 AND id = $2
      ),
      del AS (
        DELETE FROM ${t.groups} WHERE tenant = $1 AND id = $2 AND ($3::text IS NULL OR version = $3)
        RETURNING 1
      )${events}
      SELECT (SELECT count(*) FROM del)::int AS changed, (SELECT version FROM cur) AS current`;
  return {
    insert,
    insertWithEvents: `WITH g AS (${insert} RETURNING 1), ev AS (${insertEvents(t, '$11', 'g')})
      SELECT 1 FROM g`,
    get: `SELECT doc FROM ${t.groups} WHERE tenant = $1 AND id = $2`,
    getWithMembers: `SELECT grp.doc, ${membersColumn(t, 'grp.id')} AS members
      FROM ${t.groups} AS grp WHERE grp.tenant = $1 AND grp.id = $2`,
    replace: `WITH cur AS (SELECT version FROM ${t.groups} WHERE tenant = $1 AND id = $2),
      upd AS (
        UPDATE ${t.groups} SET display_name = $3, display_name_key = $4, external_id = $5,
          version = $6, created = $7::timestamptz, last_modified = $8::timestamptz, doc = $9::jsonb,
          folded = $10::jsonb
        WHERE tenant = $1 AND id = $2 AND version = $11
        RETURNING 1
      )
      SELECT (SELECT count(*) FROM upd)::int AS changed, (SELECT version FROM cur) AS current`,
    lock: `SELECT version, doc->'meta'->>'lastModified' AS last_modified FROM ${t.groups}
      WHERE tenant = $1 AND id = $2 FOR NO KEY UPDATE`,
    lockNesting: `SELECT pg_advisory_xact_lock(hashtextextended('scimkit.groups:' || $1, 0))`,
    usersAmong: `SELECT id FROM ${t.users} WHERE tenant = $1 AND id = ANY($2::text[]) FOR KEY SHARE`,
    groupsAmong: `SELECT id FROM ${t.groups} WHERE tenant = $1 AND id = ANY($2::text[]) FOR KEY SHARE`,
    cycleAmong: `WITH RECURSIVE up(id) AS (
        SELECT $2::text COLLATE "C"
        UNION
        SELECT m.group_id FROM ${t.groupMembers} AS m JOIN up ON m.tenant = $1 AND m.member_id = up.id
      )
      SELECT id FROM up WHERE id = ANY($3::text[]) LIMIT 1`,
    addMembers: `INSERT INTO ${t.groupMembers}
        (tenant, group_id, member_id, member_type, display, display_key)
      SELECT $1, $2, m.id, m.type, m.display, m.display_key
      FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) AS m(id, type, display, display_key)
      ON CONFLICT DO NOTHING
      RETURNING member_id`,
    removeMembers: `DELETE FROM ${t.groupMembers}
      WHERE tenant = $1 AND group_id = $2 AND member_id = ANY($3::text[])
      RETURNING member_id, member_type, display`,
    bump: `UPDATE ${t.groups} SET ${bumpSet} WHERE tenant = $1 AND id = $2 RETURNING version`,
    memberIds: `SELECT member_id, member_type, display FROM ${t.groupMembers}
      WHERE tenant = $1 AND group_id = $2`,
    memberPage: `SELECT member_id, member_type, display FROM ${t.groupMembers}
      WHERE tenant = $1 AND group_id = $2 AND ($3::text IS NULL OR member_id > $3)
      ORDER BY member_id LIMIT $4`,
    firstMembers: `SELECT g.id AS group_id, m.member_id, m.member_type, m.display
      FROM unnest($2::text[]) AS g(id)
      CROSS JOIN LATERAL (
        SELECT member_id, member_type, display FROM ${t.groupMembers}
        WHERE tenant = $1 AND group_id = g.id ORDER BY member_id LIMIT $3
      ) AS m
      ORDER BY g.id, m.member_id`,
    deleteGroup: {
      plain: deleteGroup(''),
      events: deleteGroup(`, ev AS (${insertEvents(t, '$4', 'del')})`),
    },
    clearMembers: `DELETE FROM ${t.groupMembers} WHERE tenant = $1 AND group_id = $2`,
    forgetMember: `WITH gone AS (
        DELETE FROM ${t.groupMembers} WHERE tenant = $1 AND member_id = $2 RETURNING group_id
      )
      UPDATE ${t.groups} SET ${bumpSet}
      WHERE tenant = $1 AND id IN (SELECT group_id FROM gone)
      RETURNING id`,
    directGroups: `SELECT g.id AS value, g.display_name AS display, 'direct' AS type
      FROM ${t.groupMembers} AS m JOIN ${t.groups} AS g ON g.tenant = m.tenant AND g.id = m.group_id
      WHERE m.tenant = $1 AND m.member_id = $2
      ORDER BY g.id`,
    allGroups: `WITH RECURSIVE up(id) AS (
        SELECT group_id FROM ${t.groupMembers} WHERE tenant = $1 AND member_id = $2
        UNION
        SELECT m.group_id FROM ${t.groupMembers} AS m JOIN up ON m.tenant = $1 AND m.member_id = up.id
      )
      SELECT g.id AS value, g.display_name AS display,
        CASE WHEN EXISTS (
          SELECT 1 FROM ${t.groupMembers} AS d WHERE d.tenant = $1 AND d.group_id = g.id AND d.member_id = $2
        ) THEN 'direct' ELSE 'indirect' END AS type
      FROM up JOIN ${t.groups} AS g ON g.tenant = $1 AND g.id = up.id
      ORDER BY g.id`,
    // A scalar subquery with LIMIT stays one index probe per row, where EXISTS may become a
    // hash of the whole membership table.
    directGroupsOfMany: `SELECT m.member_id, g.id AS value, g.display_name AS display,
        (SELECT 1 FROM ${t.groupMembers} AS p WHERE p.tenant = $1 AND p.member_id = g.id LIMIT 1)
          IS NOT NULL AS nested
      FROM ${t.groupMembers} AS m JOIN ${t.groups} AS g ON g.tenant = m.tenant AND g.id = m.group_id
      WHERE m.tenant = $1 AND m.member_id = ANY($2::text[])
      ORDER BY m.member_id, g.id`,
    ancestorsOfMany: `WITH RECURSIVE up(start, id) AS (
        SELECT member_id, group_id FROM ${t.groupMembers}
        WHERE tenant = $1 AND member_id = ANY($2::text[])
        UNION
        SELECT up.start, m.group_id FROM ${t.groupMembers} AS m JOIN up ON m.tenant = $1 AND m.member_id = up.id
      )
      SELECT up.start, g.id AS value, g.display_name AS display
      FROM up JOIN ${t.groups} AS g ON g.tenant = $1 AND g.id = up.id`,
  };
}

// A group's members as a JSON array in id order (json, not jsonb, keeps the keys' order), or
// NULL when it has none; read in the same snapshot as the group row whose id is `groupId`.
const membersColumn = (
  t: TableNames,
  groupId: string,
) => `(SELECT json_agg(json_strip_nulls(json_build_object(
    'value', gm.member_id, 'type', gm.member_type, 'display', gm.display)) ORDER BY gm.member_id)
  FROM ${t.groupMembers} AS gm WHERE gm.tenant = $1 AND gm.group_id = ${groupId})`;

/**
 * The groups as pages read them (see `pageStatement`): the table aliased as filters on
 * `members` expect it, the total counted, and with `members` each page row's members
 * (`members`), read for that page only.
 */
export function groupsPage(t: TableNames, members: boolean): PageSource {
  return {
    from: `${t.groups} AS ${GROUP_ALIAS}`,
    countAll: `(SELECT count(*) FROM ${t.groups} WHERE tenant = $1)::int`,
    ...(members && { extra: `, ${membersColumn(t, 'p.id')} AS members` }),
  };
}
