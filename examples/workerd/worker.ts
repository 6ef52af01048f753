/**
 * SCIM as a Cloudflare Worker, served locally by workerd (the runtime behind Workers):
 *
 *   npx esbuild examples/workerd/worker.ts --bundle --format=esm \
 *     --outfile=examples/workerd/.data/worker.js
 *   SCIM_KEY=dev-key npx workerd serve examples/workerd/config.capnp
 *
 * Then: curl -H 'authorization: Bearer dev-key' http://127.0.0.1:8787/api/v1/scim/v2/Users
 *
 * The memory store lives in one isolate and is lost when it is evicted: a demonstration only.
 */
// In an application: 'scimkit', 'scimkit/fetch' and 'scimkit/memory'.
import { scimFetch } from '../../src/adapters/fetch/index.js';
import { createScim, staticApiKeys } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';

/** The Worker's bindings (config.capnp; `wrangler secret put SCIM_KEY` on Cloudflare). */
interface Env {
  readonly SCIM_KEY?: string;
}

// A Worker receives its secrets with each request, not at start, so the service is built on
// the first request and kept for the isolate's life.
let handler: ((request: Request) => Promise<Response>) | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= scimFetch(
      createScim({
        store: new MemoryUserStore(),
        auth: { verifier: staticApiKeys([{ key: env.SCIM_KEY ?? 'dev-key', tenant: 'demo' }]) },
        mail: {
          mailer: { sendWelcome: async (email) => console.log(`welcome email to ${email.to}`) },
        },
        basePath: '/api/v1/scim/v2',
      }),
    );
    return handler(request);
  },
};
