import { ScimConfigError } from '../../errors/index.js';
import type { ScimRequestHead } from '../types.js';
import { targetOrigin } from './request-target.js';

/** Gives the URL every `Location`, `meta.location` and `$ref` of an answer starts with. */
export type RequestOrigin = (
  request: Pick<ScimRequestHead, 'path' | 'baseUrl'>,
) => string | undefined;

/**
 * Returns the one rule that picks the URL an answer's URLs start with (the base path follows
 * it): `publicBaseUrl` when set, whatever the request says; else the request's own origin, from
 * an absolute-form target (RFC 9112 §3.2.2) or the adapter's `baseUrl`, which comes from the
 * client's `Host` header and so is whatever the client claims.
 *
 * @throws ScimConfigError when `publicBaseUrl` is no absolute `http:` or `https:` URL, or has
 *   credentials, a query or a fragment.
 */
export function requestOrigin(publicBaseUrl: string | undefined): RequestOrigin {
  if (publicBaseUrl === undefined)
    return (request) => targetOrigin(request.path) ?? request.baseUrl;
  const fixed = checkedPublicBaseUrl(publicBaseUrl);
  return () => fixed;
}

function checkedPublicBaseUrl(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  const problem =
    url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')
      ? 'is not an absolute http: or https: URL'
      : url.username !== '' || url.password !== ''
        ? 'must not hold credentials'
        : url.search !== '' || url.hash !== '' || /[?#]/.test(text)
          ? 'must not hold a query or a fragment'
          : undefined;
  if (problem !== undefined || url === undefined)
    throw new ScimConfigError(`createScim: publicBaseUrl ${JSON.stringify(text)} ${problem}.`);
  // The URL as written on the wire (host lower-cased, path percent-encoded), without the
  // slash the base path brings.
  return url.href.endsWith('/') ? url.href.slice(0, -1) : url.href;
}
