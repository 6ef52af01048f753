import { MemoryKeyStore, type KeyStore, type UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import type { StoreConfig } from './config.js';
import { DataFolder } from './data-folder.js';
import { memoryInvitations, sqlInvitations, type InvitationLedger } from './invitations.js';

/** An open store, what to call it in the log, and how to let it go. */
export interface OpenStore {
  readonly store: UserStore;
  /** Where the current invitation of each user is kept, next to the users. */
  readonly invitations: InvitationLedger;
  /** One line for the start-up log, e.g. `PGlite in /srv/.data/pglite`. */
  readonly description: string;
  /** The API keys, next to the users. */
  readonly keys: KeyStore;
  /** Where the development key is kept, when the store has a data folder. */
  readonly devKeyFile?: string;
  /** Reads (or makes) the secret kept next to the data, when the store has a data folder. */
  readonly activationSecret?: () => string;
  close(): Promise<void>;
}

import { redactUrl } from '../../src/cli/redact-url.js';

export { redactUrl };

/**
 * Opens the configured store and brings its tables up to date, so that a bad database fails
 * at start rather than on the first request. The drivers are loaded only when used, so the
 * memory store starts without them.
 */
export async function openStore(config: StoreConfig): Promise<OpenStore> {
  if (config.kind === 'memory') {
    return {
      store: new MemoryUserStore(),
      invitations: memoryInvitations(),
      keys: new MemoryKeyStore(),
      description: 'memory (users are lost when the process stops)',
      close: async () => undefined,
    };
  }
  const { PostgresKeyStore, PostgresUserStore, pgExecutor, pgliteExecutor } =
    await import('../../src/stores/postgres/index.js');
  if (config.kind === 'pglite') {
    const folder = new DataFolder(config.dataDir);
    await folder.lock();
    try {
      const { PGlite } = await import('@electric-sql/pglite');
      const db = await PGlite.create(folder.databaseDir);
      const executor = pgliteExecutor(db);
      const store = new PostgresUserStore({ executor });
      let invitations: InvitationLedger;
      try {
        await store.migrate();
        invitations = await sqlInvitations(executor, undefined);
      } catch (error) {
        await db.close();
        throw error;
      }
      return {
        store,
        invitations,
        keys: new PostgresKeyStore({ executor }),
        devKeyFile: folder.devKeyFile,
        description: `PGlite in ${folder.databaseDir}`,
        activationSecret: () => folder.activationSecret(),
        async close() {
          try {
            await db.close();
          } finally {
            folder.unlock();
          }
        },
      };
    } catch (error) {
      folder.unlock();
      throw error;
    }
  }
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: config.url });
  // An idle connection the server drops must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const location = config.schema === undefined ? {} : { schema: config.schema };
  const executor = pgExecutor(pool);
  const store = new PostgresUserStore({ executor, ...location });
  let invitations: InvitationLedger;
  try {
    // Several instances may start at once: migrate() serialises them with an advisory lock.
    await store.migrate();
    invitations = await sqlInvitations(executor, config.schema);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    store,
    invitations,
    keys: new PostgresKeyStore({ executor, ...location }),
    description: `PostgreSQL at ${redactUrl(config.url)}, schema "${config.schema ?? 'scimkit'}"`,
    close: () => pool.end(),
  };
}
