import type { ApiKeyRecords, StoredApiKey } from '../contracts/api-key-records.js';
import { KeyStore, LAST_USED_INTERVAL_MS, type KeyStoreOptions } from './key-store.js';

// The keys of one process, by id.
class MemoryApiKeyRecords implements ApiKeyRecords {
  readonly #keys = new Map<string, StoredApiKey>();

  insert(key: StoredApiKey): Promise<void> {
    this.#keys.set(key.id, key);
    return Promise.resolve();
  }

  find(id: string): Promise<StoredApiKey | null> {
    return Promise.resolve(this.#keys.get(id) ?? null);
  }

  list(tenant: string): Promise<StoredApiKey[]> {
    const keys = [...this.#keys.values()].filter((key) => key.tenant === tenant);
    return Promise.resolve(
      keys.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1)),
    );
  }

  revoke(id: string, at: Date): Promise<boolean> {
    const key = this.#keys.get(id);
    if (key !== undefined && key.revokedAt === null) this.#keys.set(id, { ...key, revokedAt: at });
    return Promise.resolve(key !== undefined);
  }

  rotate(id: string, successor: StoredApiKey, until: Date, now: Date): Promise<boolean> {
    const key = this.#keys.get(id);
    const usable =
      key !== undefined &&
      (key.revokedAt === null || key.revokedAt > now) &&
      (key.expiresAt === null || key.expiresAt > now);
    if (!usable) return Promise.resolve(false);
    const expiresAt = key.expiresAt !== null && key.expiresAt < until ? key.expiresAt : until;
    this.#keys.set(id, { ...key, expiresAt });
    this.#keys.set(successor.id, successor);
    return Promise.resolve(true);
  }

  delete(id: string): Promise<boolean> {
    return Promise.resolve(this.#keys.delete(id));
  }

  touch(id: string, at: Date): Promise<void> {
    const key = this.#keys.get(id);
    const last = key?.lastUsedAt?.getTime();
    if (key !== undefined && (last === undefined || at.getTime() - last >= LAST_USED_INTERVAL_MS))
      this.#keys.set(id, { ...key, lastUsedAt: at });
    return Promise.resolve();
  }
}

/**
 * A {@link KeyStore} in process memory: keys are lost when the process stops. For tests and
 * single-process development; a service keeps its keys in `PostgresKeyStore`.
 *
 * @example
 * ```ts
 * const keys = new MemoryKeyStore();
 * const { secret } = await keys.issue('district-42');
 * const scim = createScim({ store, mailer, verifier: keys });
 * ```
 */
export class MemoryKeyStore extends KeyStore {
  constructor(options: KeyStoreOptions = {}) {
    super(new MemoryApiKeyRecords(), options);
  }
}
