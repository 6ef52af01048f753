import { foldCase } from '../../schema/fold-case.js';
import { backfillColumn } from './backfill-column.js';
import { foldedJson } from './folded-json.js';
import { eventMigrations, eventRowsMigration } from './event-migrations.js';
import { outboxMigration } from './outbox-migration.js';
import { insertCountMigration, USER_COUNT_SHARDS } from './user-counts.js';
import type { Migration } from './migration.js';
import { fillUserNameKeys } from './user-name-keys.js';

export type { Migration, MigrationScript } from './migration.js';

/** How migration 6 fills a table's `folded` column from its document. */
const FOLDED = {
  from: 'doc',
  to: 'folded',
  type: 'jsonb',
  compute: (doc: unknown) => foldedJson(doc),
} as const;

/**
 * Lists the store's schema changes in order. A released migration is never edited: a change
 * is a new entry with the next version.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'users, user counts and outbox',
    statements: (t) => [
      // "C" collation: ids and keys compare byte-wise, as the core orders them, and LIKE
      // prefixes can use the indexes.
      `CREATE TABLE ${t.users} (
        tenant text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        user_name text COLLATE "C" NOT NULL,
        external_id text COLLATE "C",
        version text NOT NULL,
        created timestamptz NOT NULL,
        last_modified timestamptz NOT NULL,
        doc jsonb NOT NULL,
        PRIMARY KEY (tenant, id)
      )`,
      `CREATE UNIQUE INDEX "${t.prefix}users_user_name_key" ON ${t.users} (tenant, lower(user_name))`,
      `CREATE INDEX "${t.prefix}users_external_id_idx" ON ${t.users} (tenant, external_id)`,
      // The number of users per tenant, kept by a statement trigger, so that totalResults of
      // an unfiltered page does not count every row.
      `CREATE TABLE ${t.userCounts} (
        tenant text COLLATE "C" PRIMARY KEY,
        n bigint NOT NULL
      )`,
      `CREATE FUNCTION ${t.schema}."${t.prefix}count_users"() RETURNS trigger
       LANGUAGE plpgsql AS $body$
       BEGIN
         IF TG_OP = 'INSERT' THEN
           INSERT INTO ${t.userCounts} AS c (tenant, n)
             SELECT tenant, count(*) FROM new_rows GROUP BY tenant
             ON CONFLICT (tenant) DO UPDATE SET n = c.n + excluded.n;
         ELSE
           UPDATE ${t.userCounts} AS c SET n = c.n - d.k
             FROM (SELECT tenant, count(*) AS k FROM old_rows GROUP BY tenant) AS d
             WHERE c.tenant = d.tenant;
         END IF;
         RETURN NULL;
       END
       $body$`,
      `CREATE TRIGGER "${t.prefix}users_count_insert" AFTER INSERT ON ${t.users}
       REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
       EXECUTE FUNCTION ${t.schema}."${t.prefix}count_users"()`,
      `CREATE TRIGGER "${t.prefix}users_count_delete" AFTER DELETE ON ${t.users}
       REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
       EXECUTE FUNCTION ${t.schema}."${t.prefix}count_users"()`,
      `CREATE TABLE ${t.outbox} (
        id text COLLATE "C" PRIMARY KEY,
        tenant text COLLATE "C" NOT NULL,
        user_id text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        payload jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        due_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        lease_until timestamptz,
        sent_at timestamptz,
        failed_at timestamptz,
        last_error text
      )`,
      `CREATE INDEX "${t.prefix}outbox_due_idx" ON ${t.outbox} (due_at)
       WHERE sent_at IS NULL AND failed_at IS NULL`,
    ],
  },
  {
    version: 2,
    name: 'userName key: NFC and Unicode simple case folding',
    statements: (t) => [
      // The key is computed by scimkit (userNameKey), never by the database: lower() folds by
      // the database's locale, and under "C" only A–Z.
      `ALTER TABLE ${t.users} ADD COLUMN user_name_key text COLLATE "C"`,
      fillUserNameKeys,
      `ALTER TABLE ${t.users} ALTER COLUMN user_name_key SET NOT NULL`,
      `DROP INDEX ${t.schema}."${t.prefix}users_user_name_key"`,
      // Same name as before: the name is how a unique violation is recognised as a taken userName.
      `CREATE UNIQUE INDEX "${t.prefix}users_user_name_key" ON ${t.users} (tenant, user_name_key)`,
    ],
  },
  {
    version: 3,
    name: 'outbox claim tokens',
    statements: (t) => [
      // The fencing token of the current claim (NULL while no one holds the row): renew,
      // complete, fail and release act only for the holder, so a sender whose lease ran out
      // and was claimed by another process cannot also settle or send the message.
      `ALTER TABLE ${t.outbox} ADD COLUMN claim_token text`,
    ],
  },
  {
    version: 4,
    name: 'groups and memberships',
    statements: (t) => [
      // The group without its members; display_name_key is scimkit's folding (foldCase) of
      // displayName, never the database's lower(), for caseIgnore equality.
      `CREATE TABLE ${t.groups} (
        tenant text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        display_name text NOT NULL,
        display_name_key text COLLATE "C" NOT NULL,
        external_id text COLLATE "C",
        version text NOT NULL,
        created timestamptz NOT NULL,
        last_modified timestamptz NOT NULL,
        doc jsonb NOT NULL,
        PRIMARY KEY (tenant, id)
      )`,
      `CREATE INDEX "${t.prefix}groups_display_name_key_idx" ON ${t.groups} (tenant, display_name_key)`,
      `CREATE INDEX "${t.prefix}groups_external_id_idx" ON ${t.groups} (tenant, external_id)`,
      // One row per membership: a one-member change touches one row whatever the group's size;
      // the primary key makes a second add of a member a no-op and lists a group's members,
      // the member index answers "which groups is this member in" without a scan.
      `CREATE TABLE ${t.groupMembers} (
        tenant text COLLATE "C" NOT NULL,
        group_id text COLLATE "C" NOT NULL,
        member_id text COLLATE "C" NOT NULL,
        member_type text NOT NULL CHECK (member_type IN ('User', 'Group')),
        display text,
        PRIMARY KEY (tenant, group_id, member_id)
      )`,
      `CREATE INDEX "${t.prefix}group_members_member_idx" ON ${t.groupMembers} (tenant, member_id)`,
    ],
  },
  {
    version: 5,
    name: 'resources of host resource types and their unique keys',
    statements: (t) => [
      // One table for every resource type a host registers, each resource a jsonb document;
      // id, version and the meta timestamps have columns of their own for paging, If-Match
      // and filters on meta.created / meta.lastModified.
      `CREATE TABLE ${t.resources} (
        tenant text COLLATE "C" NOT NULL,
        resource_type text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        version text NOT NULL,
        created timestamptz NOT NULL,
        last_modified timestamptz NOT NULL,
        doc jsonb NOT NULL,
        PRIMARY KEY (tenant, resource_type, id)
      )`,
      // One row per unique key a resource holds (the core computes the keys, case-folded
      // where the schema says so): the primary key lets one resource per tenant and type hold
      // a key, whoever commits first; a resource's keys go with it.
      `CREATE TABLE ${t.resourceKeys} (
        tenant text COLLATE "C" NOT NULL,
        resource_type text COLLATE "C" NOT NULL,
        attribute text COLLATE "C" NOT NULL,
        key text COLLATE "C" NOT NULL,
        id text COLLATE "C" NOT NULL,
        PRIMARY KEY (tenant, resource_type, attribute, key),
        FOREIGN KEY (tenant, resource_type, id) REFERENCES ${t.resources} ON DELETE CASCADE
      )`,
      `CREATE INDEX "${t.prefix}resource_keys_id_idx" ON ${t.resourceKeys} (tenant, resource_type, id)`,
    ],
  },
  {
    version: 6,
    name: 'case-folded copies for caseIgnore filters and sorts',
    statements: (t) => [
      // Each document beside a copy with every string folded by scimkit (foldedJson), and a
      // member's display beside its folding: caseIgnore comparisons read these, never the
      // database's lower(), which folds by the locale and neither normalises nor folds ς.
      `ALTER TABLE ${t.users} ADD COLUMN folded jsonb`,
      `ALTER TABLE ${t.groups} ADD COLUMN folded jsonb`,
      `ALTER TABLE ${t.resources} ADD COLUMN folded jsonb`,
      `ALTER TABLE ${t.groupMembers} ADD COLUMN display_key text COLLATE "C"`,
      backfillColumn({ ...FOLDED, table: (n) => n.users, keys: ['tenant', 'id'] }),
      backfillColumn({ ...FOLDED, table: (n) => n.groups, keys: ['tenant', 'id'] }),
      backfillColumn({
        ...FOLDED,
        table: (n) => n.resources,
        keys: ['tenant', 'resource_type', 'id'],
      }),
      backfillColumn({
        table: (n) => n.groupMembers,
        keys: ['tenant', 'group_id', 'member_id'],
        from: 'display',
        to: 'display_key',
        type: 'text',
        compute: (display) => (typeof display === 'string' ? foldCase(display) : null),
      }),
      `ALTER TABLE ${t.users} ALTER COLUMN folded SET NOT NULL`,
      `ALTER TABLE ${t.groups} ALTER COLUMN folded SET NOT NULL`,
      `ALTER TABLE ${t.resources} ALTER COLUMN folded SET NOT NULL`,
    ],
  },
  {
    version: 7,
    name: 'api keys',
    statements: (t) => [
      // One row per API key; the key itself is never stored, only the SHA-256 of it. Looked up
      // by id (the visible part of the key), listed per tenant.
      `CREATE TABLE ${t.apiKeys} (
        id text COLLATE "C" PRIMARY KEY,
        tenant text COLLATE "C" NOT NULL,
        profile text,
        scopes text[] NOT NULL,
        label text,
        hash text NOT NULL,
        created_at timestamptz NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz
      )`,
      `CREATE INDEX "${t.prefix}api_keys_tenant_idx" ON ${t.apiKeys} (tenant, created_at, id)`,
    ],
  },
  ...eventMigrations,
  {
    version: 10,
    name: 'user counts in shards',
    statements: (t) => [
      // One counter row per tenant made every create of the tenant wait for the previous
      // one's commit (the row stays locked until then). Each connection now adds to a row of
      // its own among USER_COUNT_SHARDS, and a page sums the tenant's rows: as exact, and two
      // creates wait for each other only when their connections share a shard.
      `ALTER TABLE ${t.userCounts} ADD COLUMN shard smallint NOT NULL DEFAULT 0`,
      `DO $body$
       DECLARE pkey text;
       BEGIN
         SELECT conname INTO pkey FROM pg_constraint
           WHERE conrelid = '${t.userCounts}'::regclass AND contype = 'p';
         EXECUTE format('ALTER TABLE ${t.userCounts} DROP CONSTRAINT %I', pkey);
       END
       $body$`,
      `ALTER TABLE ${t.userCounts} ADD PRIMARY KEY (tenant, shard)`,
      `CREATE OR REPLACE FUNCTION ${t.schema}."${t.prefix}count_users"() RETURNS trigger
       LANGUAGE plpgsql AS $body$
       BEGIN
         IF TG_OP = 'INSERT' THEN
           INSERT INTO ${t.userCounts} AS c (tenant, shard, n)
             SELECT tenant, pg_backend_pid() % ${USER_COUNT_SHARDS}, count(*)
             FROM new_rows GROUP BY tenant
             ON CONFLICT (tenant, shard) DO UPDATE SET n = c.n + excluded.n;
         ELSE
           INSERT INTO ${t.userCounts} AS c (tenant, shard, n)
             SELECT tenant, pg_backend_pid() % ${USER_COUNT_SHARDS}, -count(*)
             FROM old_rows GROUP BY tenant
             ON CONFLICT (tenant, shard) DO UPDATE SET n = c.n + excluded.n;
         END IF;
         RETURN NULL;
       END
       $body$`,
    ],
  },
  outboxMigration,
  insertCountMigration,
  eventRowsMigration,
];
