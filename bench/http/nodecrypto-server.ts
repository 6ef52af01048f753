// A diagnostic server for the HTTP benchmark: scimkit as a host would mount it on plain
// node:http (createScim + scimNode, MemoryUserStore), with an API-key verifier on node:crypto's
// synchronous SHA-256 instead of the reference `staticApiKeys`, which hashes with WebCrypto.
// Comparing it with the example server shows what the key check costs per request.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scimNode } from '../../src/adapters/node/index.js';
import { createScim, type ApiKeyVerifier } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

/** Builds a verifier for one key, compared as SHA-256 digests in constant time. */
export function nodeCryptoVerifier(key: string, tenant: string): ApiKeyVerifier {
  const expected = createHash('sha256').update(key).digest();
  return {
    async verify(token) {
      const given = createHash('sha256').update(token).digest();
      return timingSafeEqual(given, expected) ? { id: tenant } : null;
    },
  };
}

/** Starts the diagnostic server on 127.0.0.1. */
export async function startNodeCryptoServer(
  token: string,
  basePath: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const scim = createScim({
    store: new MemoryUserStore(),
    verifier: nodeCryptoVerifier(token, 'bench'),
    mailer: { async sendWelcome() {} },
    basePath,
  });
  const server = createServer(scimNode(scim));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await scim.close();
    },
  };
}
