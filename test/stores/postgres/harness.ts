import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { ScimUser } from '../../../src/schema/user-resource.js';
import {
  PostgresUserStore,
  pgExecutor,
  pgliteExecutor,
  type QueryExecutor,
} from '../../../src/stores/postgres/index.js';
import { ACCOUNT_SCHEMA, USER_SCHEMA } from '../../../src/schema/urns.js';
import { tableNames, type TableNames } from '../../../src/stores/postgres/table-names.js';
import { createPglite } from '../../pglite/template.js';

/**
 * The real server the suite also runs on. Unset on machines without PostgreSQL: those run the
 * same tests on PGlite only, and the server-only race tests are skipped.
 */
export const databaseUrl = process.env['SCIMKIT_TEST_DATABASE_URL'];

/** One backend with a fresh schema of its own, dropped by `close`. */
export interface Backend {
  readonly name: string;
  readonly executor: QueryExecutor;
  readonly schema: string;
  /** The names of the store's tables in `schema`. */
  readonly tables: TableNames;
  /** A second, independent executor on the same database (another "process"). */
  readonly other: QueryExecutor;
  newStore(): PostgresUserStore;
  close(): Promise<void>;
}

const freshSchema = () => `scimkit_test_${randomBytes(6).toString('hex')}`;

/** Opens an in-memory PGlite database. */
export async function openPglite(): Promise<Backend> {
  // Starting the WebAssembly module takes seconds: do it in the hook, not in the first test.
  const db = await createPglite();
  const executor = pgliteExecutor(db);
  const schema = freshSchema();
  return {
    name: 'pglite',
    executor,
    other: executor,
    schema,
    tables: tableNames({ schema }),
    newStore: () => new PostgresUserStore({ executor, schema, migrate: true }),
    close: () => db.close(),
  };
}

/** Opens two pools on the real server, so races really run on separate connections. */
export async function openServer(url: string): Promise<Backend> {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const pool2 = new pg.Pool({ connectionString: url, max: 4 });
  const executor = pgExecutor(pool);
  const schema = freshSchema();
  return {
    name: 'server',
    executor,
    other: pgExecutor(pool2),
    schema,
    tables: tableNames({ schema }),
    newStore: () => new PostgresUserStore({ executor, schema, migrate: true }),
    close: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all([pool.end(), pool2.end()]);
    },
  };
}

/** The backends this run covers: PGlite always, the server when its URL is set. */
export const backends: { name: string; open: () => Promise<Backend> }[] = [
  { name: 'pglite', open: openPglite },
  ...(databaseUrl ? [{ name: 'server', open: () => openServer(databaseUrl) }] : []),
];

let sequence = 0;

/** Builds a valid user as the core would hand it to a store. */
export function makeUser(overrides: Partial<ScimUser> = {}): ScimUser {
  sequence += 1;
  const id =
    overrides.id ?? `u${String(Date.now()).padStart(14, '0')}${String(sequence).padStart(6, '0')}`;
  const at = new Date(Date.UTC(2025, 0, 1, 0, 0, sequence % 60)).toISOString();
  return {
    schemas: [USER_SCHEMA, ACCOUNT_SCHEMA],
    id,
    userName: `user${sequence}@example.org`,
    active: false,
    [ACCOUNT_SCHEMA]: { status: 'Pending' },
    meta: { resourceType: 'User', created: at, lastModified: at, version: 'W/"1"' },
    ...overrides,
  };
}

/**
 * `user` as `PostgresUserStore` reads it back: with the `groups` it reads with the user, none
 * for a user in no group.
 */
export function inNoGroup<U extends object>(user: U): U & { groups: readonly never[] } {
  return { ...user, groups: [] };
}
