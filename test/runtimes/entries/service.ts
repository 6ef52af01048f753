/**
 * The service every runtime entry serves: the same API keys and base path as
 * test/http/contract.test.ts, on the store the entry passes. It imports scimkit by its own name,
 * so Bun and Deno resolve the built `dist` through the exports map as an application would.
 */
import { createScim, staticApiKeys, type UserStore, type WelcomeEmail } from 'scimkit';
import { scimFetch } from 'scimkit/fetch';

/** Where every runtime mounts the service (the contract suite's MOUNT). */
export const MOUNT = '/api/v1/scim/v2';

/**
 * Builds the Fetch handler. Beside the mount, `GET /__sent` lists the addresses the mailer was
 * handed, so a test can see that the welcome subscriber really delivered in this runtime.
 */
export function createHandler(store: UserStore): (request: Request) => Promise<Response> {
  const sent: string[] = [];
  const scim = createScim({
    store,
    verifier: staticApiKeys([
      { key: 'key-district-42', tenant: 'district-42' },
      { key: 'key-district-7', tenant: 'district-7' },
    ]),
    mailer: {
      sendWelcome: (email: WelcomeEmail) => {
        sent.push(email.to);
        return Promise.resolve();
      },
    },
    basePath: MOUNT,
  });
  const handler = scimFetch(scim);
  return (request) =>
    new URL(request.url).pathname === '/__sent'
      ? Promise.resolve(Response.json(sent))
      : handler(request);
}
