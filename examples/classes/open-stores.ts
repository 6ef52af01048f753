// In an application: 'scimkit', 'scimkit/memory' and 'scimkit/postgres'.
import type { ResourceStore, UserStore } from '../../src/index.js';
import { MemoryResourceStore, MemoryUserStore } from '../../src/stores/memory/index.js';
import type { QueryExecutor } from '../../src/stores/postgres/index.js';
import type { StoreConfig } from '../server/config.js';

/** Where the example keeps its users (and groups) and its classes, and how to let them go. */
export interface ClassesStores {
  readonly users: UserStore;
  readonly classes: ResourceStore;
  close(): Promise<void>;
}

/**
 * Both stores in memory: what is written is gone when the process stops. The classes record
 * their events in the user store's log, so one feed holds every type's.
 */
export function memoryStores(): ClassesStores {
  const users = new MemoryUserStore();
  return {
    users,
    classes: new MemoryResourceStore({ events: users.events }),
    close: async () => undefined,
  };
}

/**
 * Opens the stores `config` names, as the example server chooses its store: memory, PGlite in
 * `dataDir`, or a PostgreSQL server at `url` (in `schema`, default `scimkit`). On PostgreSQL
 * the classes live in the same database as the users, one executor for both, and the tables
 * are brought up to date before the first request. The drivers load only when used.
 */
export async function openClassesStores(config: StoreConfig): Promise<ClassesStores> {
  if (config.kind === 'memory') return memoryStores();
  const postgres = await import('../../src/stores/postgres/index.js');
  const onSql = async (executor: QueryExecutor, schema: string | undefined) => {
    const location = { executor, ...(schema === undefined ? {} : { schema }) };
    const users = new postgres.PostgresUserStore(location);
    await users.migrate();
    return {
      users,
      classes: new postgres.PostgresResourceStore({ ...location, resourceType: 'Class' }),
    };
  };
  if (config.kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const db = await PGlite.create(config.dataDir);
    try {
      return { ...(await onSql(postgres.pgliteExecutor(db), undefined)), close: () => db.close() };
    } catch (error) {
      await db.close();
      throw error;
    }
  }
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: config.url });
  // An idle connection the server drops must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  try {
    return { ...(await onSql(postgres.pgExecutor(pool), config.schema)), close: () => pool.end() };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
