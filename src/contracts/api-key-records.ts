import type { Scope } from './api-key-verifier.js';

/** What a key store shows of one API key: everything but its secret and the secret's hash. */
export interface ApiKeyInfo {
  /** The key id, also the visible part of the key (`scimkit_<id>_...`). */
  readonly id: string;
  /** The tenant the key acts for. */
  readonly tenant: string;
  /** The tenant's compatibility profile for requests with this key, or `null` for the default. */
  readonly profile: string | null;
  /** What the key may do. */
  readonly scopes: readonly Scope[];
  /** A note for people (`entra`, `okta production`), or `null`. */
  readonly label: string | null;
  /** When the key was issued. */
  readonly createdAt: Date;
  /** When the key stops working (set by an expiry or by a rotation's overlap), or `null`. */
  readonly expiresAt: Date | null;
  /** When the key was revoked, or `null`. */
  readonly revokedAt: Date | null;
  /** When the key was last used, to the minute (written at most once a minute), or `null`. */
  readonly lastUsedAt: Date | null;
}

/** One API key as a key store keeps it: {@link ApiKeyInfo} and the SHA-256 of the key. */
export interface StoredApiKey extends ApiKeyInfo {
  /** The SHA-256 digest of the whole key, in lower-case hex. The key itself is never kept. */
  readonly hash: string;
}

/**
 * Where a key store keeps its keys: the storage half of `KeyStore`, which owns every rule
 * (the key format, hashing, expiry, the verify cache, the last-used throttle). Implemented in
 * memory (`MemoryKeyStore`) and in PostgreSQL (`PostgresKeyStore` in `scimkit/postgres`).
 *
 * @example
 * ```ts
 * class MyKeyStore extends KeyStore {
 *   constructor() {
 *     super(new MyApiKeyRecords());
 *   }
 * }
 * ```
 */
export interface ApiKeyRecords {
  /** Adds a key; its id is new. */
  insert(key: StoredApiKey): Promise<void>;
  /** Returns the key with this id, or `null`. */
  find(id: string): Promise<StoredApiKey | null>;
  /** Returns the tenant's keys, revoked and expired ones included, oldest first. */
  list(tenant: string): Promise<StoredApiKey[]>;
  /** Marks the key revoked at `at` unless it already is; `false` when there is no such key. */
  revoke(id: string, at: Date): Promise<boolean>;
  /**
   * In one step: adds `successor` and makes the key `id` expire at `until` (or earlier, if it
   * already expires earlier); does neither and returns `false` unless `id` is still usable
   * (not revoked, not expired) at `now`.
   */
  rotate(id: string, successor: StoredApiKey, until: Date, now: Date): Promise<boolean>;
  /** Records a use at `at`, unless the recorded one is less than a minute older. */
  touch(id: string, at: Date): Promise<void>;
  /**
   * Removes the key's record; `false` when there is none. Optional: without it,
   * `KeyStore.delete` revokes the key instead, and its record stays.
   */
  delete?(id: string): Promise<boolean>;
}
