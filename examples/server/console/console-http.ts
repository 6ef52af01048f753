import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where the console is served: beside the SCIM base path, not below it. */
export const CONSOLE_PATH = '/console';
/** The session cookie. */
export const SESSION_COOKIE = 'scimkit_console';
/** The sign-in form's anti-forgery token, before there is a session to hold one. */
export const SIGN_IN_COOKIE = 'scimkit_console_sign_in';

/** The media type of the console's pages. */
export const HTML = 'text/html; charset=utf-8';
/** The media type of the console's short plain answers. */
export const TEXT = 'text/plain; charset=utf-8';

/**
 * The headers of every console answer: only the console's own script and style, no framing,
 * no outside resource. Referrers go to the same origin only: with `no-referrer` a browser sends
 * `Origin: null` on the console's own form posts, and the cross-site check could not tell them
 * from a sandboxed attacker's.
 */
export const HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
};

/** Answers a console request with the console's headers. */
export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, { ...HEADERS, 'content-type': type, ...extra }).end(body);
}

/** Sends the browser to another console page (303: the next request is a GET). */
export function redirect(
  res: ServerResponse,
  location: string,
  extra: Record<string, string> = {},
) {
  res.writeHead(303, { ...HEADERS, location, ...extra }).end();
}

/** The value of a request's cookie `wanted`, or undefined. */
export function cookie(req: IncomingMessage, wanted: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === wanted) return value.join('=');
  }
  return undefined;
}

/** The key of an `Authorization: Bearer` header, or undefined. */
export function bearer(req: IncomingMessage): string | undefined {
  const match = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '');
  return match?.[1];
}
