import type { ApiKeyVerifier, Tenant } from '../contracts/api-key-verifier.js';
import { ScimConfigError } from '../errors/index.js';

/** One API key of {@link staticApiKeys}: the key itself, or its SHA-256 digest in hex. */
export type StaticApiKey =
  | { readonly key: string; readonly tenant: string; readonly profile?: string }
  | { readonly sha256: string; readonly tenant: string; readonly profile?: string };

const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** The synchronous SHA-256 of `node:crypto`, where the runtime has it (Node, Bun, Deno). */
type SyncSha256 = (text: string) => Uint8Array;

// Reached through process.getBuiltinModule so the core has no static `node:` import and still
// runs on Workers; the WebCrypto fallback is async and goes through a thread pool, which costs
// tens of microseconds per request.
function findSyncSha256(): SyncSha256 | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const nodeCrypto = proc?.getBuiltinModule?.('node:crypto') as
    | {
        createHash(algorithm: 'sha256'): { update(text: string): { digest(): Uint8Array } };
        hash?(algorithm: 'sha256', text: string, encoding: 'buffer'): Uint8Array;
      }
    | undefined;
  // The one-shot `hash` (Node >= 20.12) builds no Hash object: about half the cost per request.
  const oneShot = nodeCrypto?.hash;
  if (typeof oneShot === 'function') return (text) => oneShot('sha256', text, 'buffer');
  if (typeof nodeCrypto?.createHash !== 'function') return undefined;
  return (text) => nodeCrypto.createHash('sha256').update(text).digest();
}

const syncSha256 = findSyncSha256();

async function sha256Bytes(text: string): Promise<Uint8Array> {
  if (syncSha256) return syncSha256(text);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** Computes the hex SHA-256 digest of an API key, to keep in config instead of the key. */
export async function sha256Hex(text: string): Promise<string> {
  return Array.from(await sha256Bytes(text), (b) => b.toString(16).padStart(2, '0')).join('');
}

interface Entry {
  readonly digest: Uint8Array;
  readonly tenant: Tenant;
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

// Compares every byte whatever the first difference, so timing tells nothing about the key.
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * Builds an {@link ApiKeyVerifier} for a fixed set of keys. Keys are kept only as SHA-256
 * digests and every digest is compared in constant time, so neither config nor timing gives a
 * key away.
 *
 * @example
 * ```ts
 * const verifier = staticApiKeys([
 *   { key: process.env.ENTRA_KEY!, tenant: 'district-42' },
 *   { sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', tenant: 'district-7' },
 * ]);
 * ```
 */
export function staticApiKeys(keys: readonly StaticApiKey[]): ApiKeyVerifier {
  for (const k of keys) {
    if ('sha256' in k && !HEX_DIGEST.test(k.sha256)) {
      throw new ScimConfigError(`staticApiKeys: "${k.sha256}" is not a hex SHA-256 digest.`);
    }
    if ('key' in k && k.key.length === 0)
      throw new ScimConfigError('staticApiKeys: an API key is empty.');
  }
  const tenantOf = (k: StaticApiKey): Tenant =>
    k.profile === undefined ? { id: k.tenant } : { id: k.tenant, profile: k.profile };
  const match = (entries: readonly Entry[], digest: Uint8Array): Tenant | null => {
    let found: Tenant | null = null;
    for (const entry of entries) if (constantTimeEqual(entry.digest, digest)) found = entry.tenant;
    return found;
  };
  if (syncSha256) {
    const sha = syncSha256;
    const entries = keys.map((k) => ({
      digest: 'sha256' in k ? hexToBytes(k.sha256.toLowerCase()) : sha(k.key),
      tenant: tenantOf(k),
    }));
    return { verify: (token) => match(entries, sha(token)) };
  }
  const entries = Promise.all(
    keys.map(async (k) => ({
      digest: 'sha256' in k ? hexToBytes(k.sha256.toLowerCase()) : await sha256Bytes(k.key),
      tenant: tenantOf(k),
    })),
  );
  return {
    async verify(token) {
      return match(await entries, await sha256Bytes(token));
    },
  };
}
