import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scimNode } from '../../src/adapters/node/index.js';
import { createScim, staticApiKeys, type Scim, type UserStore } from '../../src/index.js';
import { ActivationLinks } from './activation-links.js';
import type { ServerConfig } from './config.js';
import { logMailer } from './log-mailer.js';
import { SimulatedMailFailure, withMailTestAids } from './mail-test-aids.js';
import { openStore, type OpenStore } from './open-store.js';

/** Where the SCIM service is mounted. */
export const BASE_PATH = '/api/v1/scim/v2';

/** A running example server. */
export interface RunningServer {
  readonly url: string;
  readonly scim: Scim;
  readonly server: Server;
  /** Which store serves the users, for the start-up log. */
  readonly storeDescription: string;
  /** Stops accepting requests, waits for the outbox round in flight, and closes the store. */
  close(): Promise<void>;
}

/** Options of {@link startServer} beyond the environment's configuration. */
export interface StartOptions {
  /** A store of the caller's, used instead of `config.store`; the caller closes it. */
  readonly store?: UserStore;
  readonly print?: (text: string) => void;
}

/**
 * Picks the secret that signs activation links: the configured one, else the one kept in the
 * data folder, else a new one for this process only (with a warning when users outlive it).
 */
function activationSecret(config: ServerConfig, opened: OpenStore, print: (text: string) => void) {
  if (config.activationSecret !== undefined) return config.activationSecret;
  if (opened.activationSecret) return opened.activationSecret();
  if (config.store?.kind === 'postgres') {
    print(
      '[warn] SCIMKIT_ACTIVATION_SECRET is unset: generated one for this process only. Activation ' +
        'links it signs stop working when it restarts and are refused by other instances; set ' +
        'the same SCIMKIT_ACTIVATION_SECRET on every instance.',
    );
  }
  return randomBytes(32).toString('hex');
}

/** Prints a fault; a failure the test aids asked for needs no stack trace. */
function describeError(error: unknown): string {
  if (error instanceof SimulatedMailFailure) return `[mail] ${error.message}`;
  return `[error] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}

/**
 * Starts the example service: SCIM on `node:http` at {@link BASE_PATH}, plus the activation
 * page the welcome emails link to, which marks the person's account `Activated`. Users live in
 * `options.store` when given, else in the store `config.store` names (memory by default),
 * which is opened and migrated first.
 */
export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const print = options.print ?? ((text: string) => console.log(text));
  const opened: OpenStore = options.store
    ? { store: options.store, description: 'the store given to startServer', close: async () => {} }
    : await openStore(config.store ?? { kind: 'memory' });
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const links = new ActivationLinks(activationSecret(config, opened, print), origin);
  const mailer = withMailTestAids(
    logMailer(links, config.mailLog, print),
    config.mailTestAids ?? { failFirst: 0, delayMs: 0 },
    print,
  );
  const scim = createScim({
    store: opened.store,
    verifier: staticApiKeys(config.keys),
    mailer,
    basePath: BASE_PATH,
    outbox: config.outbox ?? { pollIntervalMs: 5000 },
    onError: (error) => print(describeError(error)),
  });
  const scimListener = scimNode(scim);

  server.on('request', (req, res) => {
    // SCIM traffic is the hot path: route it on the raw URL, without parsing it.
    const raw = req.url ?? '/';
    if (raw.startsWith(BASE_PATH)) {
      const next = raw.charAt(BASE_PATH.length);
      if (next === '' || next === '/' || next === '?') return scimListener(req, res);
    }
    const url = new URL(raw, origin);
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
    storeDescription: opened.description,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      mailer.abort();
      await scim.close();
      await opened.close();
    },
  };
}
