import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresKeyStore } from '../stores/postgres/postgres-key-store.js';
import { pgExecutor } from '../stores/postgres/pg-executor.js';
import { pgliteExecutor } from '../stores/postgres/pglite-executor.js';
import type { QueryExecutor } from '../stores/postgres/query-executor.js';
import { redactUrl } from './redact-url.js';

/** An open key store, the database it is in, and how to let it go. */
export interface OpenedKeyStore {
  readonly keys: PostgresKeyStore;
  /** The database's executor, for the other stores of the same tables. */
  readonly executor: QueryExecutor;
  /** The schema of the tables on a server (`SCIMKIT_DB_SCHEMA`); `undefined`: the default. */
  readonly schema: string | undefined;
  close(): Promise<void>;
}

/** Where the keys are: a PostgreSQL server, or a PGlite data folder. */
export interface KeyDatabase {
  /** `DATABASE_URL`: a PostgreSQL server. */
  readonly url?: string;
  /** `SCIMKIT_DB_SCHEMA`: the schema of the tables on the server. */
  readonly schema?: string;
  /** `--data` or `SCIMKIT_DATA_DIR`: the data folder whose `pglite` folder holds the database. */
  readonly dataDir?: string;
}

// The example server's folder lock ("<pid> <nonce>"): PGlite serves one process, and a second
// one writing the same folder would corrupt it.
function lockHolder(dataDir: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, 'server.lock'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text, 10);
  if (!(pid > 0) || pid === process.pid) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

async function openServer(url: string, schema: string | undefined): Promise<OpenedKeyStore> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined);
  const executor = pgExecutor(pool);
  const keys = new PostgresKeyStore({ executor, ...(schema === undefined ? {} : { schema }) });
  try {
    await keys.migrate();
  } catch (error) {
    await pool.end();
    throw new Error(
      `Cannot use the database at ${redactUrl(url)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { keys, executor, schema, close: () => pool.end() };
}

async function openFolder(dataDir: string): Promise<OpenedKeyStore> {
  const databaseDir = join(dataDir, 'pglite');
  if (!existsSync(join(databaseDir, 'PG_VERSION')))
    throw new Error(
      `No database in ${databaseDir}: start the server once to create it, or set DATABASE_URL.`,
    );
  const holder = lockHolder(dataDir);
  if (holder !== undefined)
    throw new Error(
      `The data folder ${dataDir} is in use by process ${holder}; PGlite serves one process: ` +
        'stop the server first, or keep the keys on PostgreSQL (DATABASE_URL).',
    );
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(databaseDir);
  const executor = pgliteExecutor(db);
  const keys = new PostgresKeyStore({ executor });
  try {
    await keys.migrate();
  } catch (error) {
    await db.close();
    throw error;
  }
  return { keys, executor, schema: undefined, close: () => db.close() };
}

/**
 * Opens the key store of a database: the PostgreSQL server when a URL is given, else the
 * PGlite database of a data folder, which must exist (the server makes it at its first start).
 * The tables are brought up to date. The drivers are loaded only when used.
 *
 * @throws Error with a one-line message when there is no database to open.
 */
export function openKeyStore(database: KeyDatabase): Promise<OpenedKeyStore> {
  if (database.url) return openServer(database.url, database.schema);
  if (database.dataDir) return openFolder(database.dataDir);
  throw new Error(
    'No database: set DATABASE_URL, or SCIMKIT_DATA_DIR (or --data DIR) to the data folder.',
  );
}
