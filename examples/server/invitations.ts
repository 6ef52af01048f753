import type { QueryExecutor } from '../../src/stores/postgres/index.js';
import { tableNames } from '../../src/stores/postgres/table-names.js';

/**
 * Which invitation email of each user carries the one activation link that still works.
 *
 * The user's own record cannot tell: after a deactivation and a reactivation an account that
 * was never activated is `Invited` again with the same `invitedAt`, and a resent invitation
 * changes nothing but its version (which every profile edit changes too). So the example
 * server keeps, next to the users, the idempotency key of the last invitation it sent.
 */
export interface InvitationLedger {
  /** Records `invitation` as the user's current one, replacing any earlier. */
  issue(tenant: string, userId: string, invitation: string): Promise<void>;
  /** Returns the user's current invitation, or undefined when there is none. */
  current(tenant: string, userId: string): Promise<string | undefined>;
  /** Forgets the user's current invitation, so that no link sent so far works. */
  revoke(tenant: string, userId: string): Promise<void>;
}

/** Keeps the ledger in this process, for the memory store (whose users go with it anyway). */
export function memoryInvitations(): InvitationLedger {
  const current = new Map<string, string>();
  const key = (tenant: string, userId: string) => JSON.stringify([tenant, userId]);
  return {
    issue: async (tenant, userId, invitation) => void current.set(key(tenant, userId), invitation),
    current: async (tenant, userId) => current.get(key(tenant, userId)),
    revoke: async (tenant, userId) => void current.delete(key(tenant, userId)),
  };
}

/**
 * Keeps the ledger in a table of the store's PostgreSQL schema (PGlite or a server), so it
 * holds across restarts and is shared by every instance; creates the table when missing.
 */
export async function sqlInvitations(
  db: QueryExecutor,
  schema: string | undefined,
): Promise<InvitationLedger> {
  const names = tableNames(schema === undefined ? {} : { schema });
  const table = `${names.schema}."example_invitations"`;
  // Several instances may start at once: CREATE TABLE IF NOT EXISTS alone can then fail on
  // PostgreSQL's catalog, so the creators take turns.
  await db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('scimkit-example-invitations'))`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS ${table} (tenant text NOT NULL, user_id text NOT NULL, ` +
        'invitation text NOT NULL, PRIMARY KEY (tenant, user_id))',
    );
  });
  return {
    async issue(tenant, userId, invitation) {
      await db.query(
        `INSERT INTO ${table} (tenant, user_id, invitation) VALUES ($1, $2, $3) ` +
          'ON CONFLICT (tenant, user_id) DO UPDATE SET invitation = EXCLUDED.invitation',
        [tenant, userId, invitation],
      );
    },
    async current(tenant, userId) {
      const rows = await db.query<{ invitation: string }>(
        `SELECT invitation FROM ${table} WHERE tenant = $1 AND user_id = $2`,
        [tenant, userId],
      );
      return rows[0]?.invitation;
    },
    async revoke(tenant, userId) {
      await db.query(`DELETE FROM ${table} WHERE tenant = $1 AND user_id = $2`, [tenant, userId]);
    },
  };
}
