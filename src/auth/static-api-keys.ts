import type { ApiKeyVerifier, Tenant } from '../contracts/api-key-verifier.js';
import { ScimConfigError } from '../errors/index.js';

/** One API key of {@link staticApiKeys}: the key itself, or its SHA-256 digest in hex. */
export type StaticApiKey =
  | { readonly key: string; readonly tenant: string; readonly profile?: string }
  | { readonly sha256: string; readonly tenant: string; readonly profile?: string };

const HEX_DIGEST = /^[0-9a-f]{64}$/i;

/** Computes the hex SHA-256 digest of an API key, to keep in config instead of the key. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
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
  const entries = Promise.all(
    keys.map(async (k) => ({
      digest: hexToBytes('sha256' in k ? k.sha256.toLowerCase() : await sha256Hex(k.key)),
      tenant: (k.profile === undefined
        ? { id: k.tenant }
        : { id: k.tenant, profile: k.profile }) as Tenant,
    })),
  );
  return {
    async verify(token) {
      const digest = new Uint8Array(
        await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)),
      );
      let found: Tenant | null = null;
      for (const entry of await entries)
        if (constantTimeEqual(entry.digest, digest)) found = entry.tenant;
      return found;
    },
  };
}
