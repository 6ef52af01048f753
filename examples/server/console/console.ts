import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyVerifier, Scim, ScimUser, UserStore } from '../../../src/index.js';
import type { DevMailbox } from './mailbox.js';
import { DEFAULT_CONSOLE_LIMITS, type ConsoleLimits } from './console-limits.js';
import { REQUEST_HISTORY, RequestLog } from './request-log.js';
import {
  consolePage,
  filterForm,
  logSection,
  mailboxSection,
  readFilters,
  signInPage,
  usersSection,
} from './render.js';
import { Sessions } from './sessions.js';
import { readForm } from '../read-form.js';

/** Where the console is served: beside the SCIM base path, not below it. */
export const CONSOLE_PATH = '/console';
const COOKIE = 'scimkit_console';
/** The most users the console lists. */
const MAX_USERS = 200;

const ASSETS: Record<string, { type: string; body: string }> = {
  'console.js': { type: 'text/javascript; charset=utf-8', body: asset('console.js') },
  'console.css': { type: 'text/css; charset=utf-8', body: asset('console.css') },
};

function asset(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
}

// Only the console's own script and style; no framing, no outside resource.
const HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
};

/** What the console needs from the example server. */
export interface ConsoleOptions {
  readonly scim: Scim;
  readonly store: UserStore;
  /** Signs a person in to a tenant with one of its API keys (the SCIM service's verifier). */
  readonly verifier: ApiKeyVerifier;
  /** A key to ask the SCIM service which resource types it serves, if one is known. */
  readonly discoveryKey: string | undefined;
  readonly mailbox: DevMailbox;
  /** Where the SCIM service is mounted, to ask it which resource types it serves. */
  readonly basePath: string;
  /** How much of the SCIM traffic the console keeps and shows; {@link DEFAULT_CONSOLE_LIMITS}. */
  readonly limits?: ConsoleLimits;
}

/** Tells whether a path is the console's. */
export function isConsolePath(pathname: string): boolean {
  return pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`);
}

function cookie(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=');
  }
  return undefined;
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

function send(res: ServerResponse, status: number, type: string, body: string, extra = {}) {
  res.writeHead(status, { ...HEADERS, 'content-type': type, ...extra }).end(body);
}

const HTML = 'text/html; charset=utf-8';

/** The names of the resource types the SCIM service serves, from its discovery endpoint. */
async function discoverResourceTypes(scim: Scim, basePath: string, key: string | undefined) {
  if (key === undefined) return [];
  const response = await scim.handle({
    method: 'GET',
    path: `${basePath}/ResourceTypes`,
    headers: { authorization: `Bearer ${key}`, accept: 'application/scim+json' },
    baseUrl: 'http://localhost',
  });
  if (response.status !== 200 || response.body === undefined) return [];
  const body = JSON.parse(response.body) as { Resources?: { name?: unknown }[] };
  return (body.Resources ?? []).map((type) => String(type.name));
}

/**
 * The provisioning console of the example server, at `/console`: a person signed in with one
 * of the tenant's API keys (a form that sets an HttpOnly, SameSite=Strict session cookie, or
 * an `Authorization: Bearer` header) sees only that tenant's users, welcome emails and SCIM
 * requests. Built only on the library's public API: `scim.onRequest`, `scim.on`, the store.
 */
export async function startConsole(options: ConsoleOptions) {
  const { scim, store, mailbox } = options;
  const { verifier } = options;
  // Asked before the console listens, so this request is in nobody's log.
  const resourceTypes = await discoverResourceTypes(scim, options.basePath, options.discoveryKey);
  const limits = options.limits ?? DEFAULT_CONSOLE_LIMITS;
  const log = new RequestLog(limits);
  const sessions = new Sessions();
  let userChanges = 0;
  scim.onRequest((event) => log.record(event));
  // Activation happens outside SCIM (the activation page): lifecycle events tell the view.
  scim.on(() => void userChanges++);

  async function tenantOf(req: IncomingMessage): Promise<string | undefined> {
    const key = bearer(req);
    if (key !== undefined) return (await verifier.verify(key))?.id;
    return sessions.tenant(cookie(req));
  }

  const stamp = (tenant: string) => `${log.latest(tenant)}.${mailbox.changes}.${userChanges}`;

  async function users(tenant: string): Promise<{ list: ScimUser[]; total: number }> {
    const page = await store.list(tenant, { startIndex: 1, count: MAX_USERS });
    return { list: [...page.resources], total: page.totalResults };
  }

  async function sections(tenant: string, url: URL) {
    const filters = readFilters(url);
    const { list, total } = await users(tenant);
    return {
      stamp: stamp(tenant),
      filters: filterForm(list, filters),
      users: usersSection(list, total),
      mailbox: mailboxSection(mailbox.list(tenant)),
      log: logSection(log.list(tenant), filters, limits.pageBytes),
    };
  }

  async function signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req, res, (status, extra) =>
      send(res, status, 'text/plain', 'Use the sign-in form.\n', extra),
    );
    if (!form) return;
    const key = form.get('key') ?? '';
    const tenant = key === '' ? null : await verifier.verify(key);
    if (!tenant) return send(res, 401, HTML, signInPage('That API key is not valid.').text);
    const id = sessions.open(tenant.id);
    res
      .writeHead(303, {
        ...HEADERS,
        location: CONSOLE_PATH,
        'set-cookie': `${COOKIE}=${id}; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict`,
      })
      .end();
  }

  async function serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = url.pathname.slice(CONSOLE_PATH.length);
    const method = req.method ?? 'GET';
    if (route.startsWith('/assets/')) {
      const found = ASSETS[route.slice('/assets/'.length)];
      if (!found) return send(res, 404, 'text/plain', 'Not found\n');
      return send(res, 200, found.type, found.body);
    }
    if (route === '/sign-in' && method === 'POST') return signIn(req, res);
    if (route === '/sign-out' && method === 'POST') {
      sessions.close(cookie(req));
      res
        .writeHead(303, {
          ...HEADERS,
          location: CONSOLE_PATH,
          'set-cookie': `${COOKIE}=; Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict; Max-Age=0`,
        })
        .end();
      return;
    }
    if (method !== 'GET' && method !== 'HEAD')
      return send(res, 405, 'text/plain', 'Method not allowed\n', { allow: 'GET, HEAD' });
    const tenant = await tenantOf(req);
    if (route === '/live') {
      if (tenant === undefined) return send(res, 401, 'application/json', '{"signedIn":false}');
      // The page polls this: nothing new, nothing sent.
      if (url.searchParams.get('stamp') === stamp(tenant)) return void res.writeHead(204).end();
      const parts = await sections(tenant, url);
      const body = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, String(v)]));
      return send(res, 200, 'application/json', JSON.stringify(body));
    }
    if (route !== '' && route !== '/') return send(res, 404, 'text/plain', 'Not found\n');
    if (tenant === undefined) return send(res, 200, HTML, signInPage().text);
    const parts = await sections(tenant, url);
    const page = consolePage({
      ...parts,
      tenant,
      resourceTypes,
      history: REQUEST_HISTORY,
    });
    send(res, 200, HTML, page.text);
  }

  return (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    serve(req, res, url).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'The console failed.\n');
      else res.destroy(error instanceof Error ? error : undefined);
    });
  };
}
