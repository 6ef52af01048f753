/**
 * SCIM on plain node:http. Run `npx tsx examples/node/main.ts`, then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/Users
 */
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
// In an application: 'scimkit', 'scimkit/node' and 'scimkit/memory'.
import { scimNode } from '../../src/adapters/node/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

/** The service behind the server. */
export const scim = createScim({
  store: new MemoryUserStore(),
  auth: { verifier: staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]) },
  mail: { mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) } },
  basePath: '/api/v1/scim/v2',
});

/** The server: the core answers 404 for anything outside `basePath`. */
export const server = createServer(scimNode(scim));

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8080);
  server.listen(port, '127.0.0.1', () =>
    console.log(`SCIM at http://127.0.0.1:${port}/api/v1/scim/v2`),
  );
}
