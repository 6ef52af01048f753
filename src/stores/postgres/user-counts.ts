import type { Migration } from './migration.js';
import type { TableNames } from './table-names.js';

/**
 * How many counter rows a tenant's user count is spread over: each connection adds to one,
 * chosen by its backend's process id, and a page sums them (migration 10).
 */
export const USER_COUNT_SHARDS = 64;

/**
 * The CTE of a users `INSERT` statement that adds to each tenant's count the users it stored:
 * `wrote` (the insert's CTE) returns the `tenant` of each row it inserted. It runs in the
 * insert's own statement rather than from a trigger, so the count costs an upsert of one row
 * per tenant and no trigger call with its table of new rows, and a user is counted exactly
 * when it is stored.
 */
export function countInsertedUsers(t: TableNames, wrote: string): string {
  return `c AS (INSERT INTO ${t.userCounts} AS c (tenant, shard, n)
      SELECT tenant, pg_backend_pid() % ${USER_COUNT_SHARDS}, count(*) FROM ${wrote} GROUP BY tenant
      ON CONFLICT (tenant, shard) DO UPDATE SET n = c.n + excluded.n)`;
}

/**
 * Migration 12: creates count themselves (see {@link countInsertedUser}), and only the delete
 * trigger of migration 10's function is left: deletes remove users in statements of several
 * shapes (one user, a whole tenant). A process of an older version that creates users after it
 * would leave them uncounted: stop those before migrating.
 */
export const insertCountMigration: Migration = {
  version: 12,
  name: 'user counts kept by the insert',
  statements: (t) => [`DROP TRIGGER "${t.prefix}users_count_insert" ON ${t.users}`],
};
