/**
 * SCIM on Fastify 5. Run `npx tsx examples/fastify/main.ts`, then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/Users
 */
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
// In an application: 'scimkit', 'scimkit/fastify' and 'scimkit/memory'.
import { scimFastify } from '../../src/adapters/fastify/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

/** The service, registered below. */
export const scim = createScim({
  store: new MemoryUserStore(),
  auth: { verifier: staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]) },
  mail: { mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) } },
  basePath: '/api/v1/scim/v2',
});

/** The Fastify app: register the plugin with `prefix` equal to `basePath`. */
export const app = Fastify();
void app.register(scimFastify(scim), { prefix: '/api/v1/scim/v2' });

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8080);
  void app
    .listen({ port, host: '127.0.0.1' })
    .then((url) => console.log(`SCIM at ${url}/api/v1/scim/v2`));
}
