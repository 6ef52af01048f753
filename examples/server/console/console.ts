import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyVerifier, KeyStore, Scim, ScimUser, UserStore } from '../../../src/index.js';
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
import { crossSiteProblem, sameToken } from './cross-site.js';
import { isActiveKey, MAX_LISTED_KEYS, runKeyAction, type KeyVerb } from './key-actions.js';
import { setupPage, type SetupView } from './setup-page.js';
import { clientOf, SignInLimiter, type SignInLimits } from './sign-in-limiter.js';
import { Sessions, type Session, type SessionLimits } from './sessions.js';
import { readForm } from '../read-form.js';

/** Where the console is served: beside the SCIM base path, not below it. */
export const CONSOLE_PATH = '/console';
const COOKIE = 'scimkit_console';
// The sign-in form's anti-forgery token, before there is a session to hold one.
const SIGN_IN_COOKIE = 'scimkit_console_sign_in';
const KEY_VERBS: Record<string, KeyVerb> = {
  '/keys/issue': 'issue',
  '/keys/rotate': 'rotate',
  '/keys/revoke': 'revoke',
};
/** The longest tenant id the sign-in form takes (a tenant id has at most 512 characters). */
const MAX_TENANT_LENGTH = 512;
/** The most users the console lists. */
const MAX_USERS = 200;

const ASSETS: Record<string, { type: string; body: string }> = {
  'console.js': { type: 'text/javascript; charset=utf-8', body: asset('console.js') },
  'console.css': { type: 'text/css; charset=utf-8', body: asset('console.css') },
  'setup.js': { type: 'text/javascript; charset=utf-8', body: asset('setup.js') },
};

function asset(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
}

// Only the console's own script and style; no framing, no outside resource.
const HEADERS = {
  'cache-control': 'no-store',
  // Same-origin: with no-referrer a browser sends `Origin: null` on the console's own form
  // posts, and the cross-site check could not tell them from a sandboxed attacker's.
  'referrer-policy': 'same-origin',
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
  /**
   * The key store behind `verifier`, when the server's keys live in one: the setup page
   * issues, rotates and revokes its keys. Without it the page only shows how to connect.
   */
  readonly keys?: KeyStore | undefined;
  /** A key to ask the SCIM service which resource types it serves, if one is known. */
  readonly discoveryKey: string | undefined;
  readonly mailbox: DevMailbox;
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

function cookie(req: IncomingMessage, wanted: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === wanted) return value.join('=');
  }
  return undefined;
}

function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}

// The key id a key store's key shows in clear (`scimkit_<id>_<secret>`).
const keyIdOf = (key: string) => /^scimkit_([0-9a-f]{16})_/.exec(key)?.[1];

function send(res: ServerResponse, status: number, type: string, body: string, extra = {}) {
  res.writeHead(status, { ...HEADERS, 'content-type': type, ...extra }).end(body);
}

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

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

/** Who a console request is: its tenant, and its session when it came with the cookie. */
interface Caller {
  readonly tenant: string;
  readonly session?: Session;
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
  const limiter = new SignInLimiter(options.signInLimits);
  const publicOrigin =
    options.publicUrl === undefined ? undefined : new URL(options.publicUrl).origin;
  // Over https the cookies are for https only.
  const secure = publicOrigin?.startsWith('https:') ? '; Secure' : '';
  const cookieAttributes = `Path=${CONSOLE_PATH}; HttpOnly; SameSite=Strict${secure}`;
  let userChanges = 0;
  scim.onRequest((event) => log.record(event));
  // Activation happens outside SCIM (the activation page): lifecycle events tell the view.
  scim.on(() => void userChanges++);

  async function callerOf(req: IncomingMessage): Promise<Caller | undefined> {
    const key = bearer(req);
    if (key !== undefined) {
      const tenant = (await verifier.verify(key))?.id;
      return tenant === undefined ? undefined : { tenant };
    }
    const id = cookie(req, COOKIE);
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

  /** The sign-in page, with the anti-forgery token its form posts back (kept in a cookie). */
  function sendSignIn(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message?: string,
    extra = {},
  ) {
    const kept = cookie(req, SIGN_IN_COOKIE);
    const token = kept !== undefined && /^[\w-]{43}$/.test(kept) ? kept : Sessions.newToken();
    send(res, status, HTML, signInPage(token, message).text, {
      'set-cookie': `${SIGN_IN_COOKIE}=${token}; ${cookieAttributes}`,
      ...extra,
    });
  }

  async function signIn(req: IncomingMessage, res: ServerResponse, form: URLSearchParams) {
    if (!sameToken(form.get('csrf') ?? undefined, cookie(req, SIGN_IN_COOKIE)))
      return sendSignIn(req, res, 403, 'The sign-in form expired: sign in again.');
    const named = (form.get('tenant') ?? '').trim().slice(0, MAX_TENANT_LENGTH);
    const client = clientOf(req.socket.remoteAddress);
    const wait = limiter.retryAfter(client, named);
    if (wait > 0)
      return sendSignIn(req, res, 429, `Too many failed sign-ins: try again in ${wait} seconds.`, {
        'retry-after': String(wait),
      });
    const key = form.get('key') ?? '';
    const tenant = key === '' || named === '' ? null : await verifier.verify(key);
    if (!tenant || tenant.id !== named) {
      limiter.fail(client, named);
      return sendSignIn(req, res, 401, 'That tenant and API key do not match.');
    }
    const id = sessions.open({ tenant: tenant.id, scopes: tenant.scopes, keyId: keyIdOf(key) });
    res
      .writeHead(303, {
        ...HEADERS,
        location: CONSOLE_PATH,
        'set-cookie': `${COOKIE}=${id}; ${cookieAttributes}`,
      })
      .end();
  }

  function signOut(req: IncomingMessage, res: ServerResponse) {
    sessions.close(cookie(req, COOKIE));
    res
      .writeHead(303, {
        ...HEADERS,
        location: CONSOLE_PATH,
        'set-cookie': `${COOKIE}=; ${cookieAttributes}; Max-Age=0`,
      })
      .end();
  }

  /** The setup page's view for a caller; `canManage` needs a session of a key with scim:write. */
  async function setupView(req: IncomingMessage, caller: Caller): Promise<SetupView> {
    const base = options.publicUrl ?? `http://${req.headers.host ?? 'localhost'}`;
    const scopes = caller.session?.scopes;
    const listed = keys === undefined ? undefined : await keys.list(caller.tenant);
    return {
      tenant: caller.tenant,
      baseUrl: `${base}${options.basePath}`,
      csrf: caller.session?.csrf ?? '',
      keys: listed?.slice(-MAX_LISTED_KEYS),
      canManage:
        keys !== undefined &&
        caller.session !== undefined &&
        (scopes === undefined || scopes.includes('scim:write')),
    };
  }

  async function keyAction(
    req: IncomingMessage,
    res: ServerResponse,
    verb: KeyVerb,
    form: URLSearchParams,
  ) {
    const caller = await callerOf(req);
    const session = caller?.session;
    if (caller === undefined || session === undefined)
      return send(res, 401, TEXT, 'Sign in to the console first.\n');
    if (!sameToken(form.get('csrf') ?? undefined, session.csrf))
      return send(res, 403, TEXT, 'This form is not from your console session: reload the page.\n');
    const view = await setupView(req, caller);
    if (!view.canManage || keys === undefined)
      return send(
        res,
        403,
        HTML,
        setupPage({ ...view, problem: 'This session may not change keys.' }).text,
      );
    const result = await runKeyAction(keys, caller.tenant, verb, form);
    if (result.problem !== undefined)
      return send(res, 400, HTML, setupPage({ ...view, problem: result.problem }).text);
    if (result.issued === undefined)
      return void res.writeHead(303, { ...HEADERS, location: `${CONSOLE_PATH}/setup` }).end();
    // The secret is in this answer only (no-store): a reload shows the list without it.
    send(
      res,
      200,
      HTML,
      setupPage({ ...(await setupView(req, caller)), issued: result.issued }).text,
    );
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
      const session = sessions.get(cookie(req, COOKIE));
      if (session !== undefined && !sameToken(form.get('csrf') ?? undefined, session.csrf))
        return send(
          res,
          403,
          TEXT,
          'This form is not from your console session: reload the page.\n',
        );
      return signOut(req, res);
    }
    if (verb !== undefined) return keyAction(req, res, verb, form);
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
    if (route === '/setup') {
      if (caller === undefined) return sendSignIn(req, res, 401, 'Sign in to see the setup page.');
      return send(res, 200, HTML, setupPage(await setupView(req, caller)).text);
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
