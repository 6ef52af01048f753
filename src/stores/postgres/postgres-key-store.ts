import { KeyStore, type KeyStoreOptions } from '../../auth/key-store.js';
import type { ApiKeyRecords, StoredApiKey } from '../../contracts/api-key-records.js';
import type { Scope } from '../../contracts/api-key-verifier.js';
import type { MigrateResult } from './migrate.js';
import type { QueryExecutor } from './query-executor.js';
import { StoreContext } from './store-context.js';
import type { TableLocation } from './table-names.js';

/** How a {@link PostgresKeyStore} reaches its table, and how it verifies. */
export interface PostgresKeyStoreOptions extends TableLocation, KeyStoreOptions {
  /** Runs the driver's statements (`pgExecutor(pool)` or `pgliteExecutor(db)`). */
  readonly executor: QueryExecutor;
  /**
   * Runs the migrations before the first statement. Default `false`: the host migrates at
   * deploy time (or calls {@link PostgresKeyStore.migrate} at start).
   */
  readonly migrate?: boolean;
}

interface KeyRow {
  id: string;
  tenant: string;
  profile: string | null;
  scopes: Scope[];
  label: string | null;
  hash: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const COLUMNS =
  'id, tenant, profile, scopes, label, hash, created_at, expires_at, revoked_at, last_used_at';

function keyOf(row: KeyRow): StoredApiKey {
  return {
    id: row.id,
    tenant: row.tenant,
    profile: row.profile,
    scopes: row.scopes,
    label: row.label,
    hash: row.hash,
    createdAt: new Date(row.created_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
    lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
  };
}

function insert(db: QueryExecutor | StoreContext, table: string, key: StoredApiKey) {
  return db.query(
    `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      key.id,
      key.tenant,
      key.profile,
      key.scopes,
      key.label,
      key.hash,
      key.createdAt,
      key.expiresAt,
      key.revokedAt,
      key.lastUsedAt,
    ],
  );
}

// The statements of the key table; every rule is in KeyStore.
class PostgresApiKeyRecords implements ApiKeyRecords {
  readonly #db: StoreContext;
  readonly #table: string;

  constructor(db: StoreContext) {
    this.#db = db;
    this.#table = db.tables.apiKeys;
  }

  async insert(key: StoredApiKey): Promise<void> {
    await insert(this.#db, this.#table, key);
  }

  async find(id: string): Promise<StoredApiKey | null> {
    const rows = await this.#db.query<KeyRow>(
      `SELECT ${COLUMNS} FROM ${this.#table} WHERE id = $1`,
      [id],
    );
    return rows[0] === undefined ? null : keyOf(rows[0]);
  }

  async list(tenant: string): Promise<StoredApiKey[]> {
    const rows = await this.#db.query<KeyRow>(
      `SELECT ${COLUMNS} FROM ${this.#table} WHERE tenant = $1 ORDER BY created_at, id`,
      [tenant],
    );
    return rows.map(keyOf);
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const rows = await this.#db.query<{ id: string }>(
      `UPDATE ${this.#table} SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING id`,
      [id, at],
    );
    return rows.length > 0;
  }

  rotate(id: string, successor: StoredApiKey, until: Date, now: Date): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const rows = await tx.query<{ id: string }>(
        `UPDATE ${this.#table} SET expires_at = least(expires_at, $2)
         WHERE id = $1 AND (revoked_at IS NULL OR revoked_at > $3)
           AND (expires_at IS NULL OR expires_at > $3)
         RETURNING id`,
        [id, until, now],
      );
      if (rows.length === 0) return false;
      await insert(tx, this.#table, successor);
      return true;
    });
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.#db.query<{ id: string }>(
      `DELETE FROM ${this.#table} WHERE id = $1 RETURNING id`,
      [id],
    );
    return rows.length > 0;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.#db.query(
      `UPDATE ${this.#table} SET last_used_at = $2::timestamptz
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at <= $2::timestamptz - interval '1 minute')`,
      [id, at],
    );
  }
}

/**
 * A {@link KeyStore} in PostgreSQL (a server through `pg`, or PGlite): keys survive restarts
 * and every instance sees the same ones. `verify` reuses a key it read for `cacheMs` (default
 * 5,000 ms), the bound on how long a revocation made elsewhere takes to hold here.
 *
 * @example
 * ```ts
 * const keys = new PostgresKeyStore({ executor: pgExecutor(pool), migrate: true });
 * const { secret } = await keys.issue('district-42', { label: 'entra' });
 * const scim = createScim({ store, mailer, verifier: keys });
 * ```
 */
export class PostgresKeyStore extends KeyStore {
  readonly #context: StoreContext;

  constructor(options: PostgresKeyStoreOptions) {
    const context = new StoreContext(options.executor, options, options.migrate ?? false);
    super(new PostgresApiKeyRecords(context), { cacheMs: 5_000, ...options });
    this.#context = context;
  }

  /** Brings the store's tables up to date (see `migrate`). */
  migrate(): Promise<MigrateResult> {
    return this.#context.migrate();
  }
}
