import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Tells why a form post must be refused as cross-site, or undefined when the browser says it
 * came from the console's own pages. `Sec-Fetch-Site` (when sent) must be `same-origin`;
 * `Origin` (when sent) must be the origin the request was addressed to (its `Host`) or the
 * server's public origin (behind a proxy that rewrites `Host`). A client that sends neither
 * (curl, an old browser) is held by the form's anti-forgery token alone.
 */
export function crossSiteProblem(
  req: IncomingMessage,
  publicOrigin: string | undefined,
): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin')
    return `the browser says this form was sent from a ${site} page`;
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  if (origin === publicOrigin) return undefined;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return 'its Origin header is not an origin';
  }
  return host === req.headers.host ? undefined : `it was sent from ${origin}`;
}

/** Compares two anti-forgery tokens in constant time; an absent or empty one never matches. */
export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined || a === '' || b === '') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
