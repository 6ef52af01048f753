/**
 * SCIM as a Web `fetch` handler. The default export is what Bun (`bun run`), Deno
 * (`deno serve`) and Cloudflare Workers expect; on Node, `npx tsx examples/fetch/main.ts` serves
 * it through @hono/node-server. Then:
 * curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8080/api/v1/scim/v2/Users
 */
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
// In an application: 'scimkit', 'scimkit/fetch' and 'scimkit/memory'.
import { scimFetch } from '../../src/adapters/fetch/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

/** The service behind the handler. */
export const scim = createScim({
  store: new MemoryUserStore(),
  auth: { verifier: staticApiKeys([{ key: process.env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]) },
  mail: { mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) } },
  basePath: '/api/v1/scim/v2',
});

/** `(request: Request) => Promise<Response>`; in Next.js export it as GET, POST, PUT, PATCH, DELETE. */
export const handler = scimFetch(scim);

export default { fetch: handler };

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.PORT ?? 8080);
  serve({ fetch: handler, port, hostname: '127.0.0.1' }, () =>
    console.log(`SCIM at http://127.0.0.1:${port}/api/v1/scim/v2`),
  );
}
