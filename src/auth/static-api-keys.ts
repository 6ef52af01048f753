import type { ApiKeyVerifier, Tenant } from '../contracts/api-key-verifier.js';
import { ScimConfigError } from '../errors/index.js';
import { constantTimeEqual } from './constant-time-equal.js';

/**
 * One API key of {@link staticApiKeys}: the key itself, or its SHA-256 digest in hex, the tenant
 * it acts for and, optionally, that tenant's compatibility profile (`Tenant.profile`).
 */
export type StaticApiKey =
  | {
      /** The key as clients send it in `Authorization: Bearer <key>`. */
      readonly key: string;
      /** The tenant the key acts for. */
      readonly tenant: string;
      /** The tenant's compatibility profile, by name. */
      readonly profile?: string;
    }
  | {
      /** The SHA-256 digest of the key, in hex: the key itself is never configured. */
      readonly sha256: string;
      /** The tenant the key acts for. */
      readonly tenant: string;
      /** The tenant's compatibility profile, by name. */
      readonly profile?: string;
    };

const HEX_DIGEST = /^[0-9a-f]{64}$/i;

// What a client can send intact as `Authorization: Bearer <key>` on every adapter: the bearer
// reader stops at whitespace, and bytes outside ASCII reach node:http as latin1, so a key
// with either could be configured but never match.
const SENDABLE_KEY = /^[\x21-\x7e]+$/;

/** The synchronous SHA-256 of `node:crypto`, where the runtime has it (Node, Bun, Deno), in lower-case hex. */
type SyncSha256 = (text: string) => string;

// Reached through process.getBuiltinModule so the core has no static `node:` import and still
// runs on Workers; the WebCrypto fallback is async and goes through a thread pool, which costs
// tens of microseconds per request.
function findSyncSha256(): SyncSha256 | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const nodeCrypto = proc?.getBuiltinModule?.('node:crypto') as
    | {
        createHash(algorithm: 'sha256'): {
          update(text: string): { digest(to: 'hex'): string };
        };
        hash?(algorithm: 'sha256', text: string, encoding: 'hex'): string;
      }
    | undefined;
  // The one-shot `hash` is Node >= 20.12; `createHash` serves older runtimes.
  const oneShot = nodeCrypto?.hash;
  if (typeof oneShot === 'function') return (text) => oneShot('sha256', text, 'hex');
  if (typeof nodeCrypto?.createHash !== 'function') return undefined;
  return (text) => nodeCrypto.createHash('sha256').update(text).digest('hex');
}

const syncSha256 = findSyncSha256();

/** Computes the hex SHA-256 digest of an API key, to keep in config instead of the key. */
export async function sha256Hex(text: string): Promise<string> {
  if (syncSha256) return syncSha256(text);
  return webCryptoSha256Hex(text);
}

// The WebCrypto way, for runtimes without `node:crypto` (Workers, browsers).
async function webCryptoSha256Hex(text: string): Promise<string> {
  const bytes = new Uint8Array(
    await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)),
  );
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

interface Entry {
  /** Lower-case hex. */
  readonly digest: string;
  readonly tenant: Tenant;
}

/**
 * Builds an {@link ApiKeyVerifier} for a fixed set of keys. Keys are kept only as SHA-256
 * digests and every digest is compared in constant time, so neither config nor timing gives a
 * key away.
 *
 * @throws ScimConfigError for a digest that is not 64 hex digits, or a key that is empty or
 *   holds anything but printable ASCII without spaces (`!` to `~`), which no client could send
 *   in `Authorization: Bearer <key>`.
 *
 * @example
 * ```ts
 * const verifier = staticApiKeys([
 *   { key: process.env.ENTRA_KEY!, tenant: 'district-42', profile: 'entra' },
 *   { sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', tenant: 'district-7', profile: 'okta' },
 * ]);
 * ```
 */
export function staticApiKeys(keys: readonly StaticApiKey[]): ApiKeyVerifier {
  for (const k of keys) {
    if ('sha256' in k && !HEX_DIGEST.test(k.sha256)) {
      throw new ScimConfigError(`staticApiKeys: "${k.sha256}" is not a hex SHA-256 digest.`);
    }
    if ('key' in k && k.key.length === 0)
      throw new ScimConfigError(`staticApiKeys: the API key of tenant "${k.tenant}" is empty.`);
    // The message names the tenant, never the key: start-up errors end up in logs.
    if ('key' in k && !SENDABLE_KEY.test(k.key))
      throw new ScimConfigError(
        `staticApiKeys: the API key of tenant "${k.tenant}" holds whitespace or a character ` +
          'outside printable ASCII, so no client could ever send it in a Bearer header.',
      );
  }
  return syncSha256 ? syncVerifier(keys, syncSha256) : webCryptoVerifier(keys);
}

function tenantOf(k: StaticApiKey): Tenant {
  return k.profile === undefined ? { id: k.tenant } : { id: k.tenant, profile: k.profile };
}

// Every entry is compared, whichever matches: the time taken tells nothing about which one.
function match(entries: readonly Entry[], digest: string): Tenant | null {
  let found: Tenant | null = null;
  for (const entry of entries) if (constantTimeEqual(entry.digest, digest)) found = entry.tenant;
  return found;
}

function syncVerifier(keys: readonly StaticApiKey[], sha: SyncSha256): ApiKeyVerifier {
  const entries = keys.map((k) => ({
    digest: 'sha256' in k ? k.sha256.toLowerCase() : sha(k.key),
    tenant: tenantOf(k),
  }));
  return { verify: (token) => match(entries, sha(token)) };
}

/**
 * The verifier {@link staticApiKeys} builds on runtimes without `node:crypto`: the same checks,
 * with WebCrypto's asynchronous digest. Exported so that its tests run it on Node too.
 *
 * @internal
 */
export function webCryptoVerifier(keys: readonly StaticApiKey[]): ApiKeyVerifier {
  const entries = Promise.all(
    keys.map(async (k) => ({
      digest: 'sha256' in k ? k.sha256.toLowerCase() : await webCryptoSha256Hex(k.key),
      tenant: tenantOf(k),
    })),
  );
  return {
    async verify(token) {
      return match(await entries, await webCryptoSha256Hex(token));
    },
  };
}
