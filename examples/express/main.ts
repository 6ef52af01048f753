/**
 * SCIM on Express 5 (Express 4 is the same). Run `npx tsx examples/express/main.ts`, then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/Users
 */
import { pathToFileURL } from 'node:url';
import express from 'express';
// In an application: 'scimkit', 'scimkit/express' and 'scimkit/memory'.
import { scimExpress } from '../../src/adapters/express/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

/** The service, mounted below. */
export const scim = createScim({
  store: new MemoryUserStore(),
  auth: { verifier: staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]) },
  mail: { mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) } },
  basePath: '/api/v1/scim/v2',
});

/** The Express app: mount the middleware at the same path as `basePath`. */
export const app = express();
app.use('/api/v1/scim/v2', scimExpress(scim));

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8080);
  app.listen(port, '127.0.0.1', () =>
    console.log(`SCIM at http://127.0.0.1:${port}/api/v1/scim/v2`),
  );
}
