/**
 * SCIM on Bun. `bun examples/bun/main.ts` serves the default export (Bun calls `Bun.serve` with
 * it) at http://127.0.0.1:8080/api/v1/scim/v2; set PORT and SCIM_KEY to change the port and the
 * key. Then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/Users
 */
// In an application: 'scimkit', 'scimkit/fetch' and 'scimkit/memory'.
import { scimFetch } from '../../src/adapters/fetch/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

const scim = createScim({
  store: new MemoryUserStore(),
  auth: { verifier: staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]) },
  mail: { mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) } },
  basePath: '/api/v1/scim/v2',
});

export default {
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 8080),
  fetch: scimFetch(scim),
};
