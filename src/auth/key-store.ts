import type { ApiKeyInfo, ApiKeyRecords, StoredApiKey } from '../contracts/api-key-records.js';
import type { ApiKeyVerifier, Scope, Tenant } from '../contracts/api-key-verifier.js';
import { tenantIdProblem } from '../core/auth/check-tenant.js';
import { isScope } from '../core/auth/scopes.js';
import { isClientText } from '../json/client-text.js';
import { keyIdOf, newKeyToken } from './api-key-token.js';
import { constantTimeEqual } from './constant-time-equal.js';
import { KeyStoreError } from './key-store-error.js';
import { sha256Hex } from './static-api-keys.js';

/** How a {@link KeyStore} verifies. */
export interface KeyStoreOptions {
  /**
   * How long a key read from the records is reused by `verify`, in ms: the longest a
   * revocation or rotation made by another instance takes to hold here. Default 5,000 for
   * `PostgresKeyStore`, 0 (no cache) for `MemoryKeyStore`. Expiry is checked on every request.
   */
  readonly cacheMs?: number;
  /** The clock, in ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /** Receives a failed last-used write; the request it came from is answered anyway. */
  readonly onError?: (error: unknown) => void;
}

/** What {@link KeyStore.issue} is told about a new key. */
export interface IssueKeyOptions {
  /** What the key may do. Default both scopes. */
  readonly scopes?: readonly Scope[];
  /** When the key stops working. Default never. */
  readonly expiresAt?: Date;
  /** A note for people, at most 200 characters. */
  readonly label?: string;
  /** The tenant's compatibility profile for requests with this key (`Tenant.profile`). */
  readonly profile?: string;
}

/** What {@link KeyStore.rotate} is told. */
export interface RotateKeyOptions {
  /** How long the old key keeps working, in ms. Default 24 hours. */
  readonly overlapMs?: number;
}

/** A key just issued: {@link ApiKeyInfo} and the key itself, shown this once and never again. */
export interface IssuedApiKey extends ApiKeyInfo {
  /** The whole key, `scimkit_<id>_<secret>`, as clients send it after `Bearer `. */
  readonly secret: string;
}

/** A key as {@link KeyStore.list} shows it: {@link ApiKeyInfo} and whether it works now. */
export interface ListedApiKey extends ApiKeyInfo {
  /** Whether the key works now: `active`, or why not. */
  readonly status: 'active' | 'expired' | 'revoked';
}

/** The overlap of {@link KeyStore.rotate} when none is given: a day to update the IdP. */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** How often the last-used time of one key is written, at most. */
export const LAST_USED_INTERVAL_MS = 60_000;
/** The most keys a verify cache (and the last-used throttle) remembers at once. */
export const MAX_CACHED_KEYS = 10_000;
const MAX_LABEL_LENGTH = 200;

const invalid = (message: string) => new KeyStoreError('invalidInput', message);

function statusOf(key: ApiKeyInfo, now: number): ListedApiKey['status'] {
  if (key.revokedAt !== null && key.revokedAt.getTime() <= now) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}

function infoOf(key: StoredApiKey): ApiKeyInfo {
  const { hash: _hash, ...info } = key;
  return info;
}

// A map that forgets its oldest entry beyond MAX_CACHED_KEYS, so random key ids cannot grow it.
function remember<V>(map: Map<string, V>, id: string, value: V): void {
  map.delete(id);
  map.set(id, value);
  if (map.size > MAX_CACHED_KEYS) map.delete(map.keys().next().value as string);
}

/**
 * Issues, lists, rotates, revokes and verifies API keys kept in {@link ApiKeyRecords}; is
 * itself the `ApiKeyVerifier` to give `createScim`. A key is `scimkit_`, a key id and 256
 * random bits; only its SHA-256 is kept, found by key id and compared in constant time.
 *
 * @example
 * ```ts
 * const keys = new MemoryKeyStore();
 * const { secret } = await keys.issue('district-42', { scopes: ['scim:read'], label: 'audit' });
 * const scim = createScim({ store, mailer, verifier: keys });
 * ```
 */
export class KeyStore implements ApiKeyVerifier {
  readonly #records: ApiKeyRecords;
  readonly #cacheMs: number;
  readonly #now: () => number;
  readonly #onError: (error: unknown) => void;
  readonly #cache = new Map<string, { at: number; key: Promise<StoredApiKey | null> }>();
  readonly #touched = new Map<string, number>();

  constructor(records: ApiKeyRecords, options: KeyStoreOptions = {}) {
    const cacheMs = options.cacheMs ?? 0;
    if (!(Number.isFinite(cacheMs) && cacheMs >= 0))
      throw new RangeError(`KeyStore: cacheMs must be a number >= 0; got ${cacheMs}.`);
    this.#records = records;
    this.#cacheMs = cacheMs;
    this.#now = options.now ?? Date.now;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Issues a key for `tenant`; the returned `secret` is shown this once. */
  async issue(tenant: string, options: IssueKeyOptions = {}): Promise<IssuedApiKey> {
    const problem = tenantIdProblem(tenant);
    if (problem !== undefined) throw invalid(`Cannot issue a key: ${problem}.`);
    const now = this.#now();
    const { scopes = ['scim:read', 'scim:write'], expiresAt, label, profile } = options;
    if (scopes.length === 0 || !scopes.every(isScope))
      throw invalid('Scopes must be "scim:read" and/or "scim:write".');
    if (expiresAt !== undefined && !(expiresAt.getTime() > now))
      throw invalid('The expiry must be a valid time in the future.');
    if (label !== undefined && (label.length > MAX_LABEL_LENGTH || !isClientText(label)))
      throw invalid(`The label must be text of at most ${MAX_LABEL_LENGTH} characters.`);
    if (profile !== undefined && (profile === '' || !isClientText(profile)))
      throw invalid('The profile must be the name of a compatibility profile.');
    const key = await this.#newKey(tenant, {
      scopes: [...new Set(scopes)],
      expiresAt: expiresAt ?? null,
      label: label ?? null,
      profile: profile ?? null,
    });
    await this.#records.insert(key.stored);
    return key.issued;
  }

  /** Lists the tenant's keys, revoked and expired ones included, oldest first. */
  async list(tenant: string): Promise<ListedApiKey[]> {
    const now = this.#now();
    const keys = await this.#records.list(tenant);
    return keys.map((key) => ({ ...infoOf(key), status: statusOf(key, now) }));
  }

  /** Revokes a key: it stops working here at once, elsewhere within `cacheMs`. */
  async revoke(id: string): Promise<void> {
    const found = await this.#records.revoke(id, new Date(this.#now()));
    this.#cache.delete(id);
    if (!found) throw new KeyStoreError('unknownKey', `No API key has the id "${id}".`);
  }

  /**
   * Deletes a key: it stops working as a revoked one does (here at once, elsewhere within
   * `cacheMs`), and its record is gone, so `list` no longer shows it. Records without `delete`
   * revoke it instead. Deleting a key that is not there does nothing: offboarding a tenant may
   * run again after a crash.
   */
  async delete(id: string): Promise<void> {
    if (this.#records.delete) await this.#records.delete(id);
    else await this.#records.revoke(id, new Date(this.#now()));
    this.#cache.delete(id);
    this.#touched.delete(id);
  }

  /**
   * Issues a successor of a usable key (same tenant, profile, scopes, label and lifetime) and
   * lets the old key work until `overlapMs` from now, so the IdP can be updated in between.
   */
  async rotate(id: string, options: RotateKeyOptions = {}): Promise<IssuedApiKey> {
    const overlapMs = options.overlapMs ?? DEFAULT_ROTATION_OVERLAP_MS;
    if (!(Number.isFinite(overlapMs) && overlapMs >= 0))
      throw invalid(`The overlap must be a duration >= 0; got ${overlapMs}.`);
    const old = await this.#records.find(id);
    if (old === null) throw new KeyStoreError('unknownKey', `No API key has the id "${id}".`);
    const now = this.#now();
    const lifetime =
      old.expiresAt === null ? null : old.expiresAt.getTime() - old.createdAt.getTime();
    const key = await this.#newKey(old.tenant, {
      scopes: old.scopes,
      expiresAt: lifetime === null ? null : new Date(now + lifetime),
      label: old.label,
      profile: old.profile,
    });
    const rotated = await this.#records.rotate(
      id,
      key.stored,
      new Date(now + overlapMs),
      new Date(now),
    );
    this.#cache.delete(id);
    if (!rotated)
      throw new KeyStoreError(
        'inactiveKey',
        `The API key "${id}" is revoked or expired; issue a new key instead.`,
      );
    return key.issued;
  }

  /**
   * Returns the tenant of a usable key (with its scopes and profile), or `null` for any other
   * token. Keys not shaped like a key store's are refused without a lookup.
   */
  async verify(token: string): Promise<Tenant | null> {
    const id = keyIdOf(token);
    if (id === undefined) return null;
    const key = await this.#lookup(id);
    if (key === null || !constantTimeEqual(await sha256Hex(token), key.hash)) return null;
    const now = this.#now();
    if (statusOf(key, now) !== 'active') return null;
    this.#touch(id, now);
    return key.profile === null
      ? { id: key.tenant, scopes: key.scopes }
      : { id: key.tenant, profile: key.profile, scopes: key.scopes };
  }

  async #newKey(
    tenant: string,
    fields: Pick<ApiKeyInfo, 'scopes' | 'expiresAt' | 'label' | 'profile'>,
  ): Promise<{ stored: StoredApiKey; issued: IssuedApiKey }> {
    const { id, token } = newKeyToken();
    const info: ApiKeyInfo = {
      id,
      tenant,
      ...fields,
      createdAt: new Date(this.#now()),
      revokedAt: null,
      lastUsedAt: null,
    };
    return {
      stored: { ...info, hash: await sha256Hex(token) },
      issued: { ...info, secret: token },
    };
  }

  // A miss is remembered too: ids are 64 random bits, so an id looked up before it was issued
  // was guessed, and a guess need not reach the records again within the bound.
  #lookup(id: string): Promise<StoredApiKey | null> {
    if (this.#cacheMs === 0) return this.#records.find(id);
    const now = this.#now();
    const cached = this.#cache.get(id);
    if (cached !== undefined && now - cached.at < this.#cacheMs) return cached.key;
    const key = this.#records.find(id);
    remember(this.#cache, id, { at: now, key });
    key.catch(() => this.#cache.delete(id));
    return key;
  }

  // At most one write a minute per key from this instance; the records skip a write when
  // another instance wrote within the minute.
  #touch(id: string, now: number): void {
    const last = this.#touched.get(id);
    if (last !== undefined && now - last < LAST_USED_INTERVAL_MS) return;
    remember(this.#touched, id, now);
    this.#records.touch(id, new Date(now)).catch(this.#onError);
  }
}
