import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyVerifier } from '../../../src/index.js';
import {
  CONSOLE_PATH,
  cookie,
  HTML,
  redirect,
  send,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
} from './console-http.js';
import { sameToken } from './cross-site.js';
import { signInPage } from './render.js';
import { Sessions } from './sessions.js';
import { clientOf, type SignInLimiter } from './sign-in-limiter.js';

/** The longest tenant id the sign-in form takes (a tenant id has at most 512 characters). */
const MAX_TENANT_LENGTH = 512;

// The key id a key store's key shows in clear (`scimkit_<id>_<secret>`).
const keyIdOf = (key: string) => /^scimkit_([0-9a-f]{16})_/.exec(key)?.[1];

/** What signing in and out needs. */
export interface SignInDeps {
  readonly verifier: ApiKeyVerifier;
  readonly sessions: Sessions;
  readonly limiter: SignInLimiter;
  /** The attributes every console cookie is set with. */
  readonly cookieAttributes: string;
}

/**
 * The console's sign-in and sign-out: the sign-in page with its double-submit token, the form's
 * answer (rate limited per client and per tenant named), and the end of a session.
 */
export function signInRoutes(deps: SignInDeps) {
  const { verifier, sessions, limiter, cookieAttributes } = deps;

  /** Answers with the sign-in page and the anti-forgery token its form posts back. */
  function sendSignIn(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message?: string,
    extra: Record<string, string> = {},
  ): void {
    const kept = cookie(req, SIGN_IN_COOKIE);
    const token = kept !== undefined && /^[\w-]{43}$/.test(kept) ? kept : Sessions.newToken();
    send(res, status, HTML, signInPage(token, message).text, {
      'set-cookie': `${SIGN_IN_COOKIE}=${token}; ${cookieAttributes}`,
      ...extra,
    });
  }

  /** Answers the sign-in form: a session, or why not (401, 403, 429 with `Retry-After`). */
  async function signIn(
    req: IncomingMessage,
    res: ServerResponse,
    form: URLSearchParams,
  ): Promise<void> {
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
    redirect(res, CONSOLE_PATH, { 'set-cookie': `${SESSION_COOKIE}=${id}; ${cookieAttributes}` });
  }

  /** Ends the request's session and clears its cookie. */
  function signOut(req: IncomingMessage, res: ServerResponse): void {
    sessions.close(cookie(req, SESSION_COOKIE));
    redirect(res, CONSOLE_PATH, {
      'set-cookie': `${SESSION_COOKIE}=; ${cookieAttributes}; Max-Age=0`,
    });
  }

  return { sendSignIn, signIn, signOut };
}
