/**
 * SCIM on Deno. `deno serve` serves the default export:
 *
 *   deno serve --allow-env --allow-net=127.0.0.1 --host 127.0.0.1 --port 8080 \
 *     --unstable-sloppy-imports examples/deno/main.ts
 *
 * (`--unstable-sloppy-imports` only because this repository's sources import `.ts` files by
 * their `.js` names; an application imports the built package, `npm:scimkit`, and needs no
 * such flag.) Set SCIM_KEY to change the key. Then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/Users
 */
// In an application: 'npm:scimkit', 'npm:scimkit/fetch' and 'npm:scimkit/memory'.
import { scimFetch } from '../../src/adapters/fetch/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

const scim = createScim({
  store: new MemoryUserStore(),
  // Deno also offers `process.env` (with --allow-env), like Node and Bun.
  auth: { verifier: staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]) },
  mail: { mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) } },
  basePath: '/api/v1/scim/v2',
});

export default { fetch: scimFetch(scim) };
