import { fileURLToPath } from 'node:url';
import {
  BUILT_IN_PROFILES,
  checkWebhookEndpoint,
  ScimConfigError,
  staticApiKeys,
  webhookSigner,
  type MailDeliveryOptions,
} from '../../src/index.js';
import { DEFAULT_CONSOLE_LIMITS, type ConsoleLimits } from './console/console-limits.js';
import type { SessionLimits } from './console/sessions.js';
import type { SignInLimits } from './console/sign-in-limiter.js';

/** One API key, the tenant it acts for, and that tenant's compatibility profile. */
export interface KeyEntry {
  readonly key: string;
  readonly tenant: string;
  /** `strict`, `lenient`, `entra` or `okta` (docs/patch.md); none: the default profile. */
  readonly profile?: string;
}

/** Where the example server keeps its users. */
export type StoreConfig =
  | { readonly kind: 'memory' }
  | { readonly kind: 'pglite'; readonly dataDir: string }
  | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string };

/** Development switches that make the log mailer misbehave, for tests of the welcome email's delivery. */
export interface MailTestAids {
  /** Fail the first this many delivery attempts of each email (counted per process). */
  readonly failFirst: number;
  /** Wait this long before each delivery, leaving a window to kill the process in. */
  readonly delayMs: number;
}

/** The time limits of the example server's `node:http` server, in milliseconds. */
export interface HttpTimeouts {
  /** A whole request, headers and body, must arrive within this (else 408). */
  readonly requestTimeoutMs: number;
  /** The request headers must arrive within this (else 408). */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** On shutdown, requests in flight get this long to finish before their connections close. */
  readonly shutdownGraceMs: number;
}

/** The defaults of {@link HttpTimeouts}. */
export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  shutdownGraceMs: 10_000,
};

/** What the example server lets clients hold at once (see docs/limits.md). */
export interface ConnectionLimits {
  /** Open connections at most; a connection past it gets a 503 and is closed. */
  readonly maxConnections: number;
  /** SCIM requests in flight per API key (hashed) at most; one past it gets a 429. */
  readonly maxRequestsPerKey: number;
  /** Bytes of request bodies being read at once, for all requests; past it, a 503. */
  readonly maxBufferedBodyBytes: number;
}

/** The defaults of {@link ConnectionLimits}. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 512,
  maxRequestsPerKey: 32,
  maxBufferedBodyBytes: 64 * 1024 * 1024,
};

/** Where every tenant's events are POSTed, signed (`SCIMKIT_WEBHOOK_URL`, `_SECRET`). */
export interface WebhookConfig {
  /** `https:`, or `http:` to a loopback host. */
  readonly url: string;
  /** One `whsec_` secret, or two (the new one and the old) while the secret is rotated. */
  readonly secrets: readonly string[];
  /** How long the endpoint has to answer one attempt. Default 15,000. */
  readonly timeoutMs?: number;
}

/** Everything the example server reads from its environment. */
export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  readonly keys: readonly KeyEntry[];
  /**
   * True when no SCIM_API_KEYS was set: the keys live in the key store (`npm run keys`), which
   * issues a development key at the first start.
   */
  readonly generatedKey: boolean;
  readonly mailLog: string | undefined;
  /** Signs activation links; when undefined, {@link startServer} finds or makes one. */
  readonly activationSecret?: string | undefined;
  /** How long an activation link works after its email is sent. Default 7 days. */
  readonly activationLinkTtlMs?: number;
  /** Default {@link DEFAULT_HTTP_TIMEOUTS}. */
  readonly httpTimeouts?: HttpTimeouts;
  /** Default {@link DEFAULT_CONNECTION_LIMITS}. */
  readonly connectionLimits?: ConnectionLimits;
  /** What the console keeps and shows. Default {@link DEFAULT_CONSOLE_LIMITS}. */
  readonly consoleLimits?: ConsoleLimits;
  /** Failed console sign-ins allowed per client and tenant. Default `DEFAULT_SIGN_IN_LIMITS`. */
  readonly consoleSignInLimits?: SignInLimits;
  /** Console sessions kept per tenant and in all. Default `DEFAULT_SESSION_LIMITS`. */
  readonly consoleSessionLimits?: SessionLimits;
  /** Default: the memory store (so tests may pass a bare config). */
  readonly store?: StoreConfig;
  /** How the welcome subscriber delivers (`mail.delivery`). */
  readonly mailDelivery?: MailDeliveryOptions;
  readonly mailTestAids?: MailTestAids;
  /**
   * Which userNames are accepted: `'email'` (the contract's service: an email address) or
   * `'rfc'` (any non-empty string). Default `'email'`.
   */
  readonly userNameRule?: 'rfc' | 'email';
  /**
   * Signs RFC 9865 cursors (at least 32 characters); every instance behind one load balancer
   * needs the same. Default: a random key per process, so cursors end with it.
   */
  readonly cursorSecret?: string | undefined;
  /** How long a cursor stays valid, in seconds (0: forever). Default 3,600. */
  readonly cursorTimeoutSeconds?: number;
  /** Whether `/ServiceProviderConfig` carries the RFC 9865 `pagination` block. Default true. */
  readonly advertiseCursors?: boolean;
  /** The profile of a tenant that has none in its key entry. Default `lenient`. */
  readonly defaultProfile?: string;
  /**
   * The request header (lower case) that names the user `/Me` stands for, by id, set by a
   * trusted proxy in front of the server. Undefined: `/Me` answers 501.
   */
  readonly meHeader?: string | undefined;
  /**
   * The URL clients reach the service at (behind a proxy, the proxy's), e.g.
   * `https://scim.example.org`: every URL in SCIM answers, the activation links and the
   * OpenAPI `servers` start with it. Undefined: the SCIM URLs come from each request's `Host`
   * header, which a client may spoof, and the links from the listening address.
   */
  readonly publicUrl?: string | undefined;
  /** Sends every tenant's directory events to one endpoint. Undefined: no webhooks. */
  readonly webhook?: WebhookConfig | undefined;
}

/** The data folder used when SCIMKIT_DATA_DIR is unset: `.data/` next to this file. */
export const DEFAULT_DATA_DIR = fileURLToPath(new URL('.data/', import.meta.url));

/** The welcome email's poll interval: emails of other instances and of a crashed process. */
const DEFAULT_POLL_MS = 5000;

/**
 * Parses `SCIM_API_KEYS`: `token:tenant` pairs separated by commas. A token may itself hold
 * colons; the tenant is what follows the last one. A token no client could send (whitespace,
 * characters outside printable ASCII) is refused here, at start, by the verifier's own rule.
 */
export function parseApiKeys(text: string): KeyEntry[] {
  const entries = text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.lastIndexOf(':');
      const key = pair.slice(0, at).trim();
      const tenant = pair.slice(at + 1).trim();
      if (at <= 0 || key === '' || tenant === '') {
        throw new Error(`SCIM_API_KEYS: "${pair}" is not a token:tenant pair.`);
      }
      return { key, tenant };
    });
  try {
    staticApiKeys(entries);
  } catch (error) {
    if (!(error instanceof ScimConfigError)) throw error;
    throw new Error(`SCIM_API_KEYS: ${error.message.replace(/^staticApiKeys: /, '')}`);
  }
  return entries;
}

/** Reads a whole number of at least `min` from the environment, or the default. */
function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`${name}: "${text}" is not a whole number of at least ${min}.`);
  return value;
}

/**
 * Chooses the store: `SCIMKIT_STORE` when set (`pglite`, `postgres` or `memory`), else
 * PostgreSQL when `DATABASE_URL` is set, else PGlite in `SCIMKIT_DATA_DIR`.
 */
export function readStoreConfig(env: NodeJS.ProcessEnv): StoreConfig {
  const url = env.DATABASE_URL?.trim();
  const kind = env.SCIMKIT_STORE?.trim() || (url ? 'postgres' : 'pglite');
  if (kind === 'memory') return { kind };
  if (kind === 'pglite') return { kind, dataDir: env.SCIMKIT_DATA_DIR?.trim() || DEFAULT_DATA_DIR };
  if (kind !== 'postgres')
    throw new Error(`SCIMKIT_STORE: "${kind}" is not one of pglite, postgres, memory.`);
  if (!url) throw new Error('SCIMKIT_STORE=postgres needs DATABASE_URL.');
  const schema = env.SCIMKIT_DB_SCHEMA?.trim();
  return schema ? { kind, url, schema } : { kind, url };
}

/** Reads the HTTP time limits, refusing a header limit longer than the request limit. */
function readHttpTimeouts(env: NodeJS.ProcessEnv): HttpTimeouts {
  const d = DEFAULT_HTTP_TIMEOUTS;
  const timeouts = {
    requestTimeoutMs: integer(env, 'SCIMKIT_REQUEST_TIMEOUT_MS', d.requestTimeoutMs, 1),
    headersTimeoutMs: integer(env, 'SCIMKIT_HEADERS_TIMEOUT_MS', d.headersTimeoutMs, 1),
    keepAliveTimeoutMs: integer(env, 'SCIMKIT_KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs, 1),
    shutdownGraceMs: integer(env, 'SCIMKIT_SHUTDOWN_GRACE_MS', d.shutdownGraceMs),
  };
  // node:http would otherwise stop at start with its own wording.
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs)
    throw new Error('SCIMKIT_HEADERS_TIMEOUT_MS must not exceed SCIMKIT_REQUEST_TIMEOUT_MS.');
  return timeouts;
}

function readConnectionLimits(env: NodeJS.ProcessEnv): ConnectionLimits {
  const d = DEFAULT_CONNECTION_LIMITS;
  return {
    maxConnections: integer(env, 'SCIMKIT_MAX_CONNECTIONS', d.maxConnections, 1),
    maxRequestsPerKey: integer(env, 'SCIMKIT_MAX_REQUESTS_PER_KEY', d.maxRequestsPerKey, 1),
    maxBufferedBodyBytes: integer(
      env,
      'SCIMKIT_MAX_BUFFERED_BODY_BYTES',
      d.maxBufferedBodyBytes,
      1,
    ),
  };
}

function readConsoleLimits(env: NodeJS.ProcessEnv): ConsoleLimits {
  const d = DEFAULT_CONSOLE_LIMITS;
  return {
    bodyBytes: integer(env, 'SCIMKIT_CONSOLE_BODY_BYTES', d.bodyBytes, 1),
    tenantBytes: integer(env, 'SCIMKIT_CONSOLE_TENANT_BYTES', d.tenantBytes, 1),
    totalBytes: integer(env, 'SCIMKIT_CONSOLE_TOTAL_BYTES', d.totalBytes, 1),
    pageBytes: integer(env, 'SCIMKIT_CONSOLE_PAGE_BYTES', d.pageBytes, 1),
  };
}

/** Reads `SCIMKIT_USERNAME_RULE`: `email` (the default) or `rfc`. */
function readUserNameRule(env: NodeJS.ProcessEnv): 'rfc' | 'email' {
  const rule = env.SCIMKIT_USERNAME_RULE?.trim() || 'email';
  if (rule !== 'rfc' && rule !== 'email')
    throw new Error(`SCIMKIT_USERNAME_RULE: "${rule}" is not one of email, rfc.`);
  return rule;
}

/** The profiles a tenant may have: the built-in ones (docs/patch.md). */
const PROFILES: readonly string[] = Object.keys(BUILT_IN_PROFILES);

/** Refuses a profile name that is not built in, naming the variable it came from. */
function profileName(variable: string, name: string): string {
  if (!PROFILES.includes(name))
    throw new Error(`${variable}: "${name}" is not one of ${PROFILES.join(', ')}.`);
  return name;
}

/**
 * Parses `SCIMKIT_TENANT_PROFILES`: `tenant:profile` pairs separated by commas, each tenant one
 * that `keys` names, and gives each key of those tenants its profile.
 */
export function withTenantProfiles(keys: readonly KeyEntry[], text: string): KeyEntry[] {
  const profiles = new Map<string, string>();
  for (const pair of text.split(',').map((p) => p.trim())) {
    if (pair === '') continue;
    const at = pair.lastIndexOf(':');
    const tenant = pair.slice(0, at).trim();
    if (at <= 0 || tenant === '')
      throw new Error(`SCIMKIT_TENANT_PROFILES: "${pair}" is not a tenant:profile pair.`);
    if (!keys.some((k) => k.tenant === tenant))
      throw new Error(`SCIMKIT_TENANT_PROFILES: no API key is for tenant "${tenant}".`);
    profiles.set(tenant, profileName('SCIMKIT_TENANT_PROFILES', pair.slice(at + 1).trim()));
  }
  return keys.map((k) => {
    const profile = profiles.get(k.tenant);
    return profile === undefined ? k : { ...k, profile };
  });
}

/** Reads `SCIMKIT_ADVERTISE_CURSORS`: `true` (the default) or `false`. */
function readAdvertiseCursors(env: NodeJS.ProcessEnv): boolean {
  const value = env.SCIMKIT_ADVERTISE_CURSORS?.trim() || 'true';
  if (value !== 'true' && value !== 'false')
    throw new Error(`SCIMKIT_ADVERTISE_CURSORS: "${value}" is not true or false.`);
  return value === 'true';
}

/** Reads `SCIMKIT_CURSOR_SECRET`, refusing one shorter than `createScim` accepts (32). */
function readCursorSecret(env: NodeJS.ProcessEnv): string | undefined {
  const secret = env.SCIMKIT_CURSOR_SECRET?.trim() || undefined;
  if (secret !== undefined && secret.length < 32)
    throw new Error('SCIMKIT_CURSOR_SECRET: must be at least 32 characters.');
  return secret;
}

/**
 * Reads `SCIMKIT_PUBLIC_URL`: an `http:` or `https:` URL, maybe with a path prefix, without a
 * query; the trailing slash dropped. `createScim` holds the full rule (`publicBaseUrl`); this
 * refuses the likely mistakes at start, naming the variable.
 */
function readPublicUrl(env: NodeJS.ProcessEnv): string | undefined {
  const text = env.SCIMKIT_PUBLIC_URL?.trim() || undefined;
  if (text === undefined) return undefined;
  if (!/^https?:\/\/[^/?#@\s]+(\/[^?#\s]*)?$/i.test(text))
    throw new Error(
      `SCIMKIT_PUBLIC_URL: "${text}" is not an http: or https: URL without a query, such as https://scim.example.org.`,
    );
  return text.replace(/\/+$/, '');
}

/**
 * Reads `SCIMKIT_WEBHOOK_URL` and `SCIMKIT_WEBHOOK_SECRET` (one `whsec_` secret, or the new and
 * the old separated by a space while rotating): both or neither. The URL must be `https:`
 * (plain `http:` only to a loopback host); the library's own check says what is wrong.
 */
export function readWebhookConfig(env: NodeJS.ProcessEnv): WebhookConfig | undefined {
  const url = env.SCIMKIT_WEBHOOK_URL?.trim() || undefined;
  const secretText = env.SCIMKIT_WEBHOOK_SECRET?.trim() || undefined;
  if (url === undefined && secretText === undefined) return undefined;
  if (url === undefined)
    throw new Error('SCIMKIT_WEBHOOK_SECRET is set but SCIMKIT_WEBHOOK_URL is not: set both.');
  if (secretText === undefined)
    throw new Error(
      "SCIMKIT_WEBHOOK_URL needs SCIMKIT_WEBHOOK_SECRET (make one with: node -e \"console.log('whsec_' + crypto.randomBytes(32).toString('base64'))\").",
    );
  const secrets = secretText.split(/\s+/);
  try {
    webhookSigner(secrets, 'SCIMKIT_WEBHOOK_SECRET');
    checkWebhookEndpoint({ url, secrets }, 'SCIMKIT_WEBHOOK_URL');
  } catch (error) {
    if (!(error instanceof ScimConfigError)) throw error;
    throw new Error(error.message);
  }
  return { url, secrets, timeoutMs: integer(env, 'SCIMKIT_WEBHOOK_TIMEOUT_MS', 15_000, 1) };
}

/**
 * Reads how the welcome email is delivered. A send may take half the lease: the lease must
 * outlive every attempt made under it.
 */
function readMailDelivery(env: NodeJS.ProcessEnv): MailDeliveryOptions {
  const leaseMs = integer(env, 'SCIMKIT_MAIL_LEASE_MS', 60_000, 2);
  return {
    pollIntervalMs: integer(env, 'SCIMKIT_MAIL_POLL_MS', DEFAULT_POLL_MS),
    backoff: { initialMs: integer(env, 'SCIMKIT_MAIL_RETRY_MS', 1000, 1) },
    leaseMs,
    timeoutMs: Math.min(30_000, Math.floor(leaseMs / 2)),
    maxAttempts: integer(env, 'SCIMKIT_MAIL_MAX_ATTEMPTS', 8, 1),
  };
}

/** Reads the server's configuration from environment variables. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT: "${env.PORT}" is not a port number.`);
  const configured = env.SCIM_API_KEYS?.trim() ? parseApiKeys(env.SCIM_API_KEYS) : [];
  const generatedKey = configured.length === 0;
  const keys = withTenantProfiles(configured, env.SCIMKIT_TENANT_PROFILES ?? '');
  const meHeader = env.SCIMKIT_ME_HEADER?.trim().toLowerCase() || undefined;
  if (meHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(meHeader))
    throw new Error(`SCIMKIT_ME_HEADER: "${meHeader}" is not a header name.`);
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    keys,
    generatedKey,
    mailLog: env.SCIMKIT_MAIL_LOG || undefined,
    activationSecret: env.SCIMKIT_ACTIVATION_SECRET || undefined,
    activationLinkTtlMs: integer(env, 'SCIMKIT_ACTIVATION_LINK_TTL_HOURS', 7 * 24, 1) * 3_600_000,
    httpTimeouts: readHttpTimeouts(env),
    connectionLimits: readConnectionLimits(env),
    consoleLimits: readConsoleLimits(env),
    store: readStoreConfig(env),
    mailDelivery: readMailDelivery(env),
    mailTestAids: {
      failFirst: integer(env, 'SCIMKIT_MAIL_FAIL_FIRST', 0),
      delayMs: integer(env, 'SCIMKIT_MAIL_DELAY_MS', 0),
    },
    userNameRule: readUserNameRule(env),
    cursorSecret: readCursorSecret(env),
    cursorTimeoutSeconds: integer(env, 'SCIMKIT_CURSOR_TIMEOUT_SECONDS', 3600),
    advertiseCursors: readAdvertiseCursors(env),
    defaultProfile: profileName(
      'SCIMKIT_DEFAULT_PROFILE',
      env.SCIMKIT_DEFAULT_PROFILE?.trim() || 'lenient',
    ),
    meHeader,
    publicUrl: readPublicUrl(env),
    webhook: readWebhookConfig(env),
  };
}
