import { userNameKey } from '../../schema/user-name-key.js';
import type { QueryExecutor } from './query-executor.js';
import type { TableNames } from './table-names.js';

/** Rows read and written per round trip: bounded memory whatever the table's size. */
const BATCH = 1000;

/**
 * Fills `user_name_key` for every existing user with {@link userNameKey}, the key the store
 * writes from then on, and fails when two users of one tenant share a key: they were distinct
 * accounts under the old A–Z folding but are one identity now, and only a person can decide
 * which one stays. The error names the tenant and the userNames; nothing is changed.
 */
export async function fillUserNameKeys(tx: QueryExecutor, t: TableNames): Promise<void> {
  let after: { tenant: string; id: string } | undefined;
  for (;;) {
    const rows = await tx.query<{ tenant: string; id: string; user_name: string }>(
      `SELECT tenant, id, user_name FROM ${t.users}
       ${after ? 'WHERE (tenant, id) > ($2, $3)' : ''}
       ORDER BY tenant, id LIMIT $1`,
      after ? [BATCH, after.tenant, after.id] : [BATCH],
    );
    if (rows.length === 0) break;
    await tx.query(
      `UPDATE ${t.users} AS u SET user_name_key = k.key
       FROM unnest($1::text[], $2::text[], $3::text[]) AS k(tenant, id, key)
       WHERE u.tenant = k.tenant AND u.id = k.id`,
      [rows.map((r) => r.tenant), rows.map((r) => r.id), rows.map((r) => userNameKey(r.user_name))],
    );
    const last = rows[rows.length - 1] as { tenant: string; id: string };
    after = { tenant: last.tenant, id: last.id };
  }
  const clashes = await tx.query<{ tenant: string; user_names: string[] }>(
    `SELECT tenant, array_agg(user_name ORDER BY id) AS user_names FROM ${t.users}
     GROUP BY tenant, user_name_key HAVING count(*) > 1 ORDER BY tenant LIMIT 20`,
  );
  if (clashes.length > 0) {
    const list = clashes
      .map((c) => `tenant "${c.tenant}": ${c.user_names.map((n) => JSON.stringify(n)).join(', ')}`)
      .join('; ');
    throw new Error(
      `scimkit migration 2 stopped: these userNames differ only in letter case and would be one ` +
        `identity under Unicode case folding; rename or delete all but one in each group, then ` +
        `migrate again (nothing was changed): ${list}.`,
    );
  }
}
