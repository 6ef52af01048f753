/**
 * SCIM on Hono 4, served on Node by @hono/node-server (on Bun, Deno or Workers export `app`
 * instead). Run `npx tsx examples/hono/main.ts`, then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/Users
 */
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
// In an application: 'scimkit', 'scimkit/hono' and 'scimkit/memory'.
import { scimHono } from '../../src/adapters/hono/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

/** The service, routed below. */
export const scim = createScim({
  store: new MemoryUserStore(),
  auth: { verifier: staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]) },
  mail: { mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) } },
  basePath: '/api/v1/scim/v2',
});

/** The Hono app: every method below `basePath` goes to the handler. */
export const app = new Hono();
app.all('/api/v1/scim/v2/*', scimHono(scim));

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8080);
  serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () =>
    console.log(`SCIM at http://127.0.0.1:${port}/api/v1/scim/v2`),
  );
}
