import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyVerifier, KeyStore, Scim, ScimUser, UserStore } from '../../../src/index.js';
import type { DevMailbox } from './mailbox.js';
import type { DirectoryEvents } from '../events/directory-events.js';
import { EVENTS_PER_PAGE, eventsPage, type EventRow } from './events-page.js';
import { DEFAULT_RECENT_EVENTS_LIMITS, RecentEvents } from './recent-events.js';
import { DEFAULT_CONSOLE_LIMITS, type ConsoleLimits } from './console-limits.js';
import { REQUEST_HISTORY, RequestLog } from './request-log.js';
import {
  consolePage,
  filterForm,
  logSection,
  mailboxSection,
  readFilters,
  usersSection,
} from './render.js';
import { bearer, CONSOLE_PATH, cookie, HTML, send, SESSION_COOKIE, TEXT } from './console-http.js';
import { crossSiteProblem, sameToken } from './cross-site.js';
import { isActiveKey, type KeyVerb } from './key-actions.js';
import { setupRoutes, type ConsoleCaller } from './setup-routes.js';
import { signInRoutes } from './sign-in-routes.js';
import { SignInLimiter, type SignInLimits } from './sign-in-limiter.js';
import { Sessions, type SessionLimits } from './sessions.js';
import { readForm } from '../read-form.js';

export { CONSOLE_PATH } from './console-http.js';

const KEY_VERBS: Record<string, KeyVerb> = {
  '/keys/issue': 'issue',
  '/keys/rotate': 'rotate',
  '/keys/revoke': 'revoke',
};
/** The most users the console lists. */
const MAX_USERS = 200;
/** The most delivery attempts shown per event. */
const MAX_ATTEMPTS_SHOWN = 10;

const ASSETS: Record<string, { type: string; body: string }> = {
  'console.js': { type: 'text/javascript; charset=utf-8', body: asset('console.js') },
  'console.css': { type: 'text/css; charset=utf-8', body: asset('console.css') },
  'setup.js': { type: 'text/javascript; charset=utf-8', body: asset('setup.js') },
};

function asset(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
}

/** What the console needs from the example server. */
export interface ConsoleOptions {
  readonly scim: Scim;
  readonly store: UserStore;
  /** Signs a person in to a tenant with one of its API keys (the SCIM service's verifier). */
  readonly verifier: ApiKeyVerifier;
  /**
   * The key store behind `verifier`, when the server's keys live in one: the setup page
   * issues, rotates and revokes its keys. Without it the page only shows how to connect.
   */
  readonly keys?: KeyStore | undefined;
  /** A key to ask the SCIM service which resource types it serves, if one is known. */
  readonly discoveryKey: string | undefined;
  readonly mailbox: DevMailbox;
  /** The directory events and their delivery attempts; undefined when the store keeps none. */
  readonly events?: DirectoryEvents | undefined;
  /** Whether the server POSTs events to a webhook endpoint. */
  readonly webhooks?: boolean;
  /** Where the SCIM service is mounted, to ask it which resource types it serves. */
  readonly basePath: string;
  /**
   * The URL clients reach the server at (`SCIMKIT_PUBLIC_URL`): the setup page's base URL
   * starts with it, and form posts from its origin are same-site. Without it the base URL is
   * built from the request's `Host`.
   */
  readonly publicUrl?: string | undefined;
  /** How much of the SCIM traffic the console keeps and shows; {@link DEFAULT_CONSOLE_LIMITS}. */
  readonly limits?: ConsoleLimits;
  /** Failed sign-ins allowed per client and per tenant; `DEFAULT_SIGN_IN_LIMITS`. */
  readonly signInLimits?: SignInLimits;
  /** Sessions kept per tenant and in all; `DEFAULT_SESSION_LIMITS`. */
  readonly sessionLimits?: SessionLimits;
}

/** Tells whether a path is the console's. */
export function isConsolePath(pathname: string): boolean {
  return pathname === CONSOLE_PATH || pathname.startsWith(`${CONSOLE_PATH}/`);
}

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
 * requests, and on `/console/setup` the SCIM base URL, the tenant's keys and how to connect
 * each IdP. Sign-in failures are rate limited per client and per tenant; every form post must
 * come from the console's own pages (origin headers and an anti-forgery token). Built only on
 * the library's public API: `scim.onRequest`, `scim.on`, the store, the key store.
 */
export async function startConsole(options: ConsoleOptions) {
  const { scim, store, mailbox, verifier, keys } = options;
  // Asked before the console listens, so this request is in nobody's log.
  const resourceTypes = await discoverResourceTypes(scim, options.basePath, options.discoveryKey);
  const limits = options.limits ?? DEFAULT_CONSOLE_LIMITS;
  const log = new RequestLog(limits);
  const sessions = new Sessions(options.sessionLimits);
  const publicOrigin =
    options.publicUrl === undefined ? undefined : new URL(options.publicUrl).origin;
  // Over https the cookies are for https only.
  const secure = publicOrigin?.startsWith('https:') ? '; Secure' : '';
  const cookieAttributes = `Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict${secure}`;
  const { sendSignIn, signIn, signOut } = signInRoutes({
    verifier,
    sessions,
    limiter: new SignInLimiter(options.signInLimits),
    cookieAttributes,
  });
  const { showSetup, keyAction } = setupRoutes({
    keys,
    publicUrl: options.publicUrl,
    basePath: options.basePath,
  });
  const events = options.events;
  const recent = events === undefined ? undefined : new RecentEvents(events);
  let userChanges = 0;
  scim.onRequest((event) => log.record(event));
  // Activation happens outside SCIM (the activation page): lifecycle events tell the view.
  scim.on(() => void userChanges++);

  async function callerOf(req: IncomingMessage): Promise<ConsoleCaller | undefined> {
    const key = bearer(req);
    if (key !== undefined) {
      const tenant = (await verifier.verify(key))?.id;
      return tenant === undefined ? undefined : { tenant };
    }
    const id = cookie(req, SESSION_COOKIE);
    const session = sessions.get(id);
    if (session === undefined) return undefined;
    // A session ends with the key it was opened with: revoking a leaked key ends its sessions.
    if (keys !== undefined && session.keyId !== undefined) {
      if (!isActiveKey(await keys.list(session.tenant), session.keyId)) {
        sessions.close(id);
        return undefined;
      }
    }
    return { tenant: session.tenant, session };
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

  /** The events page: the tenant's newest events, a page at a time, with their attempts. */
  async function showEvents(res: ServerResponse, caller: ConsoleCaller, url: URL) {
    const pageText = url.searchParams.get('page') ?? '0';
    const asked = /^[0-9]{1,4}$/.test(pageText) ? Number(pageText) : 0;
    const newest = recent === undefined ? undefined : await recent.newest(caller.tenant);
    const all = newest?.events ?? [];
    const pages = Math.ceil(all.length / EVENTS_PER_PAGE);
    const page = Math.max(0, Math.min(asked, pages - 1));
    const listAttempts = events?.attempts;
    const rows: EventRow[] = await Promise.all(
      all.slice(page * EVENTS_PER_PAGE, (page + 1) * EVENTS_PER_PAGE).map(async (event) => ({
        event,
        attempts:
          listAttempts === undefined
            ? undefined
            : await listAttempts({
                tenant: caller.tenant,
                eventId: event.id,
                limit: MAX_ATTEMPTS_SHOWN,
              }),
      })),
    );
    const view = eventsPage({
      tenant: caller.tenant,
      csrf: caller.session?.csrf ?? '',
      rows,
      page,
      pages,
      keep: DEFAULT_RECENT_EVENTS_LIMITS.keep,
      caughtUp: newest?.caughtUp ?? true,
      read: newest?.read ?? 0,
      webhooks: options.webhooks ?? false,
      noLog: events === undefined,
    });
    send(res, 200, HTML, view.text);
  }

  async function post(req: IncomingMessage, res: ServerResponse, route: string) {
    const verb = KEY_VERBS[route];
    if (route !== '/sign-in' && route !== '/sign-out' && verb === undefined)
      return send(res, 405, TEXT, 'Method not allowed\n', { allow: 'GET, HEAD' });
    const crossSite = crossSiteProblem(req, publicOrigin);
    if (crossSite !== undefined)
      return send(res, 403, TEXT, `Refused: ${crossSite}. Use the console's own pages.\n`);
    const form = await readForm(req, res, (status, extra) =>
      send(res, status, TEXT, "Use the console's forms.\n", extra),
    );
    if (!form) return;
    if (route === '/sign-in') return signIn(req, res, form);
    if (route === '/sign-out') {
      const session = sessions.get(cookie(req, SESSION_COOKIE));
      if (session !== undefined && !sameToken(form.get('csrf') ?? undefined, session.csrf))
        return send(
          res,
          403,
          TEXT,
          'This form is not from your console session: reload the page.\n',
        );
      return signOut(req, res);
    }
    if (verb !== undefined) return keyAction(req, res, await callerOf(req), verb, form);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const route = url.pathname.slice(CONSOLE_PATH.length);
    const method = req.method ?? 'GET';
    if (route.startsWith('/assets/')) {
      const found = ASSETS[route.slice('/assets/'.length)];
      if (!found) return send(res, 404, TEXT, 'Not found\n');
      return send(res, 200, found.type, found.body);
    }
    if (method === 'POST') return post(req, res, route);
    if (method !== 'GET' && method !== 'HEAD')
      return send(res, 405, TEXT, 'Method not allowed\n', { allow: 'GET, HEAD, POST' });
    const caller = await callerOf(req);
    if (route === '/live') {
      if (caller === undefined) return send(res, 401, 'application/json', '{"signedIn":false}');
      // The page polls this: nothing new, nothing sent.
      if (url.searchParams.get('stamp') === stamp(caller.tenant))
        return void res.writeHead(204).end();
      const parts = await sections(caller.tenant, url);
      const body = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, String(v)]));
      return send(res, 200, 'application/json', JSON.stringify(body));
    }
    if (route === '/events') {
      if (caller === undefined) return sendSignIn(req, res, 401, 'Sign in to see the events.');
      return showEvents(res, caller, url);
    }
    if (route === '/setup') {
      if (caller === undefined) return sendSignIn(req, res, 401, 'Sign in to see the setup page.');
      return showSetup(req, res, caller);
    }
    if (route !== '' && route !== '/') return send(res, 404, TEXT, 'Not found\n');
    if (caller === undefined) return sendSignIn(req, res, 200);
    const parts = await sections(caller.tenant, url);
    const page = consolePage({
      ...parts,
      tenant: caller.tenant,
      csrf: caller.session?.csrf ?? '',
      resourceTypes,
      history: REQUEST_HISTORY,
    });
    send(res, 200, HTML, page.text);
  }

  return (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    serve(req, res, url).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, TEXT, 'The console failed.\n');
      else res.destroy(error instanceof Error ? error : undefined);
    });
  };
}
