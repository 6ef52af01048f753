import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deferContinue, scimNode } from '../../src/adapters/node/index.js';
import {
  ACCOUNT_SCHEMA,
  createScim,
  MemoryKeyStore,
  staticApiKeys,
  WEBHOOK_RETRY,
  webhookSubscriber,
  type MeHook,
  type Scim,
  type ScimOptions,
  type UserStore,
} from '../../src/index.js';
import { activationPage } from './activation-page.js';
import { CONSOLE_PATH, isConsolePath, startConsole } from './console/console.js';
import { DevMailbox, MailboxLinks } from './console/mailbox.js';
import { DEFAULT_CONNECTION_LIMITS, DEFAULT_HTTP_TIMEOUTS, type ServerConfig } from './config.js';
import { devKey, type DevKey } from './dev-key.js';
import {
  directoryEvents,
  type DirectoryEvents,
  type Subscription,
} from './events/directory-events.js';
import { EVENTS_PATH, eventsRoute } from './events/events-route.js';
import { trackConnections } from './graceful-close.js';
import { memoryInvitations } from './invitations.js';
import { keyGate } from './key-gate.js';
import { logMailer } from './log-mailer.js';
import { SimulatedMailFailure, withMailTestAids } from './mail-test-aids.js';
import { openStore, type OpenStore } from './open-store.js';
import { withEventFeed } from './events/feed-openapi.js';
import { openApiRoute } from './openapi-route.js';

/** Where the SCIM service is mounted. */
export const BASE_PATH = '/api/v1/scim/v2';

/** A running example server. */
export interface RunningServer {
  readonly url: string;
  /** The provisioning console's address (see docs/console.md). */
  readonly consoleUrl: string;
  readonly scim: Scim;
  readonly server: Server;
  /** Which store serves the users, for the start-up log. */
  readonly storeDescription: string;
  /** The development key, when no `SCIM_API_KEYS` were set and the key store serves keys. */
  readonly devKey?: DevKey;
  /**
   * Shuts down gracefully: stops accepting connections, answers every request that has
   * arrived (those still in the socket buffers and pipelined ones too), the last on each
   * connection with `Connection: close`, and closes each connection once its answers are out,
   * for up to `httpTimeouts.shutdownGraceMs` (then it closes what is still open); then closes
   * the SCIM service (the email in flight finishes; unsent ones stay for the next start) and
   * the store.
   */
  close(): Promise<void>;
}

/** Options of {@link startServer} beyond the environment's configuration. */
export interface StartOptions {
  /** A store of the caller's, used instead of `config.store`; the caller closes it. */
  readonly store?: UserStore;
  readonly print?: (text: string) => void;
  /**
   * Gives the directory events the server reads and subscribes with, instead of the service's
   * own (`scim.events` and the store's delivery attempts).
   */
  readonly events?: (scim: Scim) => DirectoryEvents | undefined;
}

/** The name of the durable subscriber that POSTs events to `SCIMKIT_WEBHOOK_URL`. */
export const WEBHOOK_SUBSCRIBER = 'webhooks';

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

/** Warns when instances sharing a PostgreSQL database would each sign cursors their own way. */
function warnCursorSecret(config: ServerConfig, print: (text: string) => void): void {
  if (config.cursorSecret !== undefined || config.store?.kind !== 'postgres') return;
  print(
    '[warn] SCIMKIT_CURSOR_SECRET is unset: cursors are signed with a key of this process only; ' +
      'another instance refuses them (400 invalidCursor). Set the same SCIMKIT_CURSOR_SECRET on ' +
      'every instance.',
  );
}

/** Warns when a server others can reach would write the client's `Host` into its answers. */
function warnPublicUrl(config: ServerConfig, print: (text: string) => void): void {
  if (config.publicUrl !== undefined || ['127.0.0.1', '::1', 'localhost'].includes(config.host))
    return;
  print(
    '[warn] SCIMKIT_PUBLIC_URL is unset: the URLs in SCIM answers (Location, meta.location, ' +
      "$ref) are built from each request's Host header, which a client may spoof. Set " +
      'SCIMKIT_PUBLIC_URL to the URL clients reach this server at.',
  );
}

/**
 * The `/Me` hook of the example server: the user id the trusted proxy put in `header`, or none
 * (404). Whoever holds a tenant's API key can already act on every user of it, so the header
 * gives no one more than the key does.
 */
function meFromHeader(header: string): MeHook {
  return (_tenant, request) => {
    // Header names arrive in any letter case (node:http lowers them; other adapters may not).
    const name = Object.keys(request.headers).find((n) => n.toLowerCase() === header);
    const id = name === undefined ? undefined : request.headers[name];
    return typeof id === 'string' && id.trim() !== '' ? id.trim() : null;
  };
}

/** Prints a fault; a failure the test aids asked for needs no stack trace. */
function describeError(error: unknown): string {
  if (error instanceof SimulatedMailFailure) return `[mail] ${error.message}`;
  return `[error] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}

/**
 * Starts the example service: SCIM on `node:http` at {@link BASE_PATH}, plus the activation
 * page the welcome emails link to (a GET shows it, its button's POST marks the account
 * `Activated`). Users live in `options.store` when given, else in the store `config.store`
 * names (memory by default), which is opened and migrated first. The server's request, header
 * and keep-alive timeouts come from `config.httpTimeouts`.
 */
export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const print = options.print ?? ((text: string) => console.log(text));
  const timeouts = config.httpTimeouts ?? DEFAULT_HTTP_TIMEOUTS;
  const opened: OpenStore = options.store
    ? {
        store: options.store,
        invitations: memoryInvitations(),
        keys: new MemoryKeyStore(),
        description: 'the store given to startServer',
        close: async () => {},
      }
    : await openStore(config.store ?? { kind: 'memory' });
  const server = createServer({
    requestTimeout: timeouts.requestTimeoutMs,
    headersTimeout: timeouts.headersTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    // node:http looks for requests over their time limits only this often (30 s by default,
    // which would let a limit run up to twice as long as configured).
    connectionsCheckingInterval: Math.min(1000, timeouts.headersTimeoutMs),
  });
  // `Expect: 100-continue` gets its 100 once the request is admitted, not before the key is checked.
  deferContinue(server);
  const limits = config.connectionLimits ?? DEFAULT_CONNECTION_LIMITS;
  const connections = trackConnections(server, limits.maxConnections);
  const perKey = keyGate(limits.maxRequestsPerKey);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  // Without SCIM_API_KEYS the keys live in the database, issued with `npm run keys`.
  const fromStore = config.keys.length === 0;
  let dev: DevKey | undefined;
  try {
    dev = fromStore ? await devKey(opened.keys, opened.devKeyFile) : undefined;
  } catch (error) {
    server.close();
    await opened.close();
    throw error;
  }
  const verifier = fromStore ? opened.keys : staticApiKeys(config.keys);
  const { port } = server.address() as AddressInfo;
  const origin = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // Where clients reach the server: the links it hands out point there.
  const publicUrl = config.publicUrl ?? origin;
  warnCursorSecret(config, print);
  warnPublicUrl(config, print);
  const mailbox = new DevMailbox();
  const links = new MailboxLinks(mailbox, {
    secret: activationSecret(config, opened, print),
    origin: publicUrl,
    ledger: opened.invitations,
    ...(config.activationLinkTtlMs === undefined ? {} : { ttlMs: config.activationLinkTtlMs }),
  });
  const mailer = withMailTestAids(
    logMailer(links, config.mailLog, print),
    config.mailTestAids ?? { failFirst: 0, delayMs: 0 },
    print,
  );
  const scimOptions: ScimOptions = {
    store: opened.store,
    auth: { verifier },
    mail: { mailer, delivery: config.mailDelivery ?? { pollIntervalMs: 5000 } },
    basePath: BASE_PATH,
    ...(config.publicUrl === undefined ? {} : { publicBaseUrl: config.publicUrl }),
    // The contract's service names its users by email address.
    schema: { userNameRule: config.userNameRule ?? 'email' },
    paging: {
      ...(config.cursorSecret === undefined ? {} : { cursorSecret: config.cursorSecret }),
      ...(config.cursorTimeoutSeconds === undefined
        ? {}
        : { cursorTimeoutSeconds: config.cursorTimeoutSeconds }),
      ...(config.advertiseCursors === undefined
        ? {}
        : { advertiseCursors: config.advertiseCursors }),
    },
    dialects: config.defaultProfile === undefined ? {} : { defaultProfile: config.defaultProfile },
    ...(config.meHeader === undefined ? {} : { me: meFromHeader(config.meHeader) }),
    hooks: { onError: (error) => print(describeError(error)) },
  };
  const scim = createScim(scimOptions);
  scim.on((event) => {
    // An account reactivated before it was ever activated is Invited again: the links already
    // sent die with the deactivation, and the person gets a new invitation. (A first move into
    // Invited is no reactivation: that write queued the welcome email itself.)
    if (event.type !== 'user.reactivated') return;
    const { tenant, user } = event;
    if (user[ACCOUNT_SCHEMA].status !== 'Invited') return;
    links
      .revoke(tenant, user.id)
      .then(() => scim.users.resendInvitation(tenant, user.id))
      .catch((error: unknown) => print(describeError(error)));
  });
  const events = options.events ? options.events(scim) : directoryEvents(scim, opened.store);
  let webhooks: Subscription | undefined;
  if (config.webhook !== undefined) {
    const { url, secrets, timeoutMs } = config.webhook;
    if (events === undefined) {
      server.close();
      await scim.close();
      await opened.close();
      throw new Error(
        'SCIMKIT_WEBHOOK_URL is set, but this store keeps no event log to deliver from.',
      );
    }
    // The subscriber's limit on an attempt stays above the endpoint's, and its lease twice that.
    const attemptMs = Math.max(WEBHOOK_RETRY.timeoutMs, (timeoutMs ?? 0) + 5_000);
    webhooks = events.subscribe(
      WEBHOOK_SUBSCRIBER,
      webhookSubscriber({
        endpoint: { url, secrets },
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      }),
      { ...WEBHOOK_RETRY, timeoutMs: attemptMs, leaseMs: Math.max(60_000, 2 * attemptMs) },
    );
  }
  const feed = eventsRoute({ verifier, events, onError: (error) => print(describeError(error)) });
  const scimNodeListener = scimNode(scim, { maxBufferedBodyBytes: limits.maxBufferedBodyBytes });
  const scimListener = (req: IncomingMessage, res: ServerResponse) => {
    if (perKey.enter(req, res)) scimNodeListener(req, res);
  };
  const activation = activationPage(links, scim, print);
  // Described from the options the service runs with, so it lists what the service serves.
  const openApi = openApiRoute({ ...scimOptions, serverUrl: publicUrl }, (document) =>
    withEventFeed(document, publicUrl),
  );
  const devConsole = await startConsole({
    scim,
    store: opened.store,
    verifier,
    keys: fromStore ? opened.keys : undefined,
    discoveryKey: config.keys[0]?.key ?? dev?.key,
    mailbox,
    events,
    webhooks: config.webhook !== undefined,
    basePath: BASE_PATH,
    publicUrl: config.publicUrl,
    ...(config.consoleLimits === undefined ? {} : { limits: config.consoleLimits }),
    ...(config.consoleSignInLimits === undefined
      ? {}
      : { signInLimits: config.consoleSignInLimits }),
    ...(config.consoleSessionLimits === undefined
      ? {}
      : { sessionLimits: config.consoleSessionLimits }),
  });

  server.on('request', (req, res) => {
    if (!connections.admit(req, res)) return;
    // SCIM traffic is the hot path: route it on the raw URL, without parsing it.
    const raw = req.url ?? '/';
    if (isScimTarget(raw)) return scimListener(req, res);
    let url: URL;
    try {
      // Also reads an absolute-form target (`GET http://host/path`, RFC 9112 §3.2.2).
      url = new URL(raw, origin);
    } catch {
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request target\n');
    }
    if (isScimTarget(url.pathname)) {
      // Hand SCIM the origin-form target it routes on.
      req.url = `${url.pathname}${url.search}`;
      return scimListener(req, res);
    }
    if (url.pathname === EVENTS_PATH) {
      if (perKey.enter(req, res)) feed(req, res, url);
      return;
    }
    if (url.pathname === '/activate') return activation(req, res, url);
    if (url.pathname === '/openapi.json') return openApi(req, res);
    if (isConsolePath(url.pathname)) return devConsole(req, res, url);
    if (url.pathname === '/healthz')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok\n');
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end(`Not found. The SCIM service is at ${BASE_PATH}\n`);
  });

  return {
    url: `${origin}${BASE_PATH}`,
    consoleUrl: `${origin}${CONSOLE_PATH}`,
    scim,
    server,
    storeDescription: opened.description,
    ...(dev === undefined ? {} : { devKey: dev }),
    async close() {
      await connections.drain(timeouts.shutdownGraceMs);
      mailer.abort();
      await webhooks?.stop();
      await scim.close();
      await opened.close();
    },
  };
}

/** Whether a target (origin-form path, maybe with a query) lies under {@link BASE_PATH}. */
function isScimTarget(target: string): boolean {
  if (!target.startsWith(BASE_PATH)) return false;
  const next = target.charAt(BASE_PATH.length);
  return next === '' || next === '/' || next === '?';
}
