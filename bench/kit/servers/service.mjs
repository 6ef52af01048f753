/* global process, console */
// The configuration every scimkit kit server serves: the settings the shared benchmark kit
// passes (PORT, HOST, PREFIX, SCIM_TOKEN), the memory store, userNames that are email addresses
// (as the example server requires) and a mailer that sends nothing. It imports the package by
// its own name, so Node resolves the built `dist` through the exports map: run `npm run build`
// first.
import { createServer } from 'node:http';
import { createScim, staticApiKeys } from 'scimkit';
import { MemoryUserStore } from 'scimkit/memory';
import { scimNode } from 'scimkit/node';

export const PORT = Number(process.env.PORT ?? 3000);
export const HOST = process.env.HOST ?? '127.0.0.1';
export const PREFIX = process.env.PREFIX ?? '/api/v1/scim/v2';
export const TOKEN = process.env.SCIM_TOKEN ?? 'bench-token';

/**
 * The service over `store`: one tenant, one key, and a mailer that sends nothing, or none with
 * `mail: false` (then no welcome email is delivered at all).
 */
export function serviceOn(store, { mail = true } = {}) {
  return createScim({
    store,
    verifier: staticApiKeys([{ key: TOKEN, tenant: 'bench' }]),
    ...(mail ? { mailer: { sendWelcome: async () => undefined } } : {}),
    basePath: PREFIX,
    userNameRule: 'email',
  });
}

/** The service on the memory store. */
export const scim = serviceOn(new MemoryUserStore());

/**
 * Serves, as the kit server `name`, the service on a memory store made with `storeOptions` and
 * no mailer (so no welcome email): the diagnostic servers that tell the event log's cost and the
 * email's from the pipeline's.
 */
export async function serveWithoutMail(name, storeOptions) {
  const service = serviceOn(new MemoryUserStore(storeOptions), { mail: false });
  await preseed(service);
  const server = createServer(scimNode(service));
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.listen(PORT, HOST, () => ready(name, server));
}

/** The keep-alive timeout the kit's baselines use, so idle wrk connections are not closed. */
export const KEEP_ALIVE_MS = 65_000;

/**
 * Prints the line the kit's baselines print (the port actually bound, so PORT=0 works), and
 * exits normally on SIGTERM or SIGINT, so that `--cpu-prof` writes its profile.
 */
export function ready(name, server) {
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : PORT;
  console.log(`${name} listening on http://${HOST}:${port}${PREFIX} pid=${process.pid}`);
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => process.exit(0));
}

/**
 * Creates `SCIMKIT_PRESEED` users (default none) through `scim.handle`, the POST path without
 * HTTP, before the server listens: the kit seeds through HTTP, which on a loaded 2-core machine
 * runs at a few hundred users a second, too slow to reach 1,000,000 (bench/kit/scaling.ts).
 */
export async function preseed(service = scim) {
  const count = Number(process.env.SCIMKIT_PRESEED ?? 0);
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/scim+json' };
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: `p-${i}@example.com`,
      active: true,
      name: { givenName: `Given${i}`, familyName: `Family${i}` },
    });
    const response = await service.handle({
      method: 'POST',
      path: `${PREFIX}/Users`,
      headers,
      body,
      baseUrl: `http://${HOST}:${PORT}`,
    });
    if (response.status !== 201)
      throw new Error(`preseed: HTTP ${response.status} ${response.body}`);
  }
}
