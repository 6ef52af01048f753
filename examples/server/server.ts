import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scimNode } from '../../src/adapters/node/index.js';
import { createScim, staticApiKeys, type Scim, type UserStore } from '../../src/index.js';
import { MemoryUserStore } from '../../src/stores/memory/index.js';
import { ActivationLinks } from './activation-links.js';
import type { ServerConfig } from './config.js';
import { logMailer } from './log-mailer.js';

/** Where the SCIM service is mounted. */
export const BASE_PATH = '/api/v1/scim/v2';

/** A running example server. */
export interface RunningServer {
  readonly url: string;
  readonly scim: Scim;
  readonly server: Server;
  close(): Promise<void>;
}

/** Options of {@link startServer} beyond the environment's configuration. */
export interface StartOptions {
  readonly store?: UserStore;
  readonly print?: (text: string) => void;
}

/**
 * Starts the example service: SCIM on `node:http` at {@link BASE_PATH}, plus the activation
 * page the welcome emails link to, which marks the person's account `Activated`.
 */
export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const print = options.print ?? ((text: string) => console.log(text));
  const store = options.store ?? new MemoryUserStore();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const links = new ActivationLinks(config.activationSecret, origin);
  const scim = createScim({
    store,
    verifier: staticApiKeys(config.keys),
    mailer: logMailer(links, config.mailLog, print),
    basePath: BASE_PATH,
    outbox: { pollIntervalMs: 5000 },
    onError: (error) =>
      print(`[error] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  });
  const scimListener = scimNode(scim);

  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', origin);
    if (url.pathname === BASE_PATH || url.pathname.startsWith(`${BASE_PATH}/`))
      return scimListener(req, res);
    if (url.pathname === '/activate' && req.method === 'GET') {
      const target = links.verify(url.searchParams);
      const done = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
      };
      if (!target) return done(400, 'This activation link is not valid.');
      scim.users.activate(target.tenant, target.userId).then(
        (user) =>
          done(
            user ? 200 : 404,
            user
              ? `Account ${user.userName} is now ${String(user['urn:scimkit:params:scim:schemas:extension:account:2.0:User'].status)}.`
              : 'No such account.',
          ),
        () => done(500, 'Activation failed; try again.'),
      );
      return;
    }
    if (url.pathname === '/healthz')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end(`Not found. The SCIM service is at ${BASE_PATH}\n`);
  });

  return {
    url: `${origin}${BASE_PATH}`,
    scim,
    server,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await scim.close();
    },
  };
}
