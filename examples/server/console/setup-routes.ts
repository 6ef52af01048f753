import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KeyStore } from '../../../src/index.js';
import { CONSOLE_PATH, HTML, redirect, send, TEXT } from './console-http.js';
import { sameToken } from './cross-site.js';
import { MAX_LISTED_KEYS, runKeyAction, type KeyVerb } from './key-actions.js';
import type { Session } from './sessions.js';
import { setupPage, type SetupView } from './setup-page.js';

/** Who a console request is: its tenant, and its session when it came with the cookie. */
export interface ConsoleCaller {
  readonly tenant: string;
  readonly session?: Session;
}

/** What the setup page needs. */
export interface SetupDeps {
  /** The key store behind the verifier, or undefined when keys are fixed at start. */
  readonly keys: KeyStore | undefined;
  /** `SCIMKIT_PUBLIC_URL`, or undefined to build the base URL from the request's `Host`. */
  readonly publicUrl: string | undefined;
  readonly basePath: string;
}

/** The setup page (`/console/setup`) and its key actions (`/console/keys/<verb>`). */
export function setupRoutes(deps: SetupDeps) {
  const { keys } = deps;

  /** The setup page's view for a caller; changing keys needs a session of a scim:write key. */
  async function view(req: IncomingMessage, caller: ConsoleCaller): Promise<SetupView> {
    const base = deps.publicUrl ?? `http://${req.headers.host ?? 'localhost'}`;
    const scopes = caller.session?.scopes;
    const listed = keys === undefined ? undefined : await keys.list(caller.tenant);
    return {
      tenant: caller.tenant,
      baseUrl: `${base}${deps.basePath}`,
      csrf: caller.session?.csrf ?? '',
      keys: listed?.slice(-MAX_LISTED_KEYS),
      canManage:
        keys !== undefined &&
        caller.session !== undefined &&
        (scopes === undefined || scopes.includes('scim:write')),
    };
  }

  /** Shows the setup page. */
  async function showSetup(req: IncomingMessage, res: ServerResponse, caller: ConsoleCaller) {
    send(res, 200, HTML, setupPage(await view(req, caller)).text);
  }

  /**
   * Runs a key action posted by a session's own page (its anti-forgery token), then shows the
   * page: with the new secret (this answer only, `no-store`), or with what to fix (400).
   */
  async function keyAction(
    req: IncomingMessage,
    res: ServerResponse,
    caller: ConsoleCaller | undefined,
    verb: KeyVerb,
    form: URLSearchParams,
  ): Promise<void> {
    const session = caller?.session;
    if (caller === undefined || session === undefined)
      return send(res, 401, TEXT, 'Sign in to the console first.\n');
    if (!sameToken(form.get('csrf') ?? undefined, session.csrf))
      return send(res, 403, TEXT, 'This form is not from your console session: reload the page.\n');
    const before = await view(req, caller);
    if (!before.canManage || keys === undefined) {
      const problem = 'This session may not change keys.';
      return send(res, 403, HTML, setupPage({ ...before, problem }).text);
    }
    const result = await runKeyAction(keys, caller.tenant, verb, form);
    if (result.problem !== undefined)
      return send(res, 400, HTML, setupPage({ ...before, problem: result.problem }).text);
    if (result.issued === undefined) return redirect(res, `${CONSOLE_PATH}/setup`);
    const after = await view(req, caller);
    send(res, 200, HTML, setupPage({ ...after, issued: result.issued }).text);
  }

  return { showSetup, keyAction };
}
