// `scheme://authority` at the start of an absolute-form request target (RFC 9112 §3.2.2).
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * Returns the path of a request target sent in absolute form (`http://host/Users`, as proxies
 * and some clients send it) so that it routes like `/Users`; an origin-form path comes back as
 * it is.
 *
 * @see RFC 9112 §3.2.2
 */
export function targetPath(path: string): string {
  if (path.charCodeAt(0) === 0x2f) return path;
  const origin = ABSOLUTE_FORM.exec(path)?.[0];
  if (origin === undefined) return path;
  return path.length === origin.length ? '/' : path.slice(origin.length);
}

/**
 * Returns `scheme://authority` of a request target sent in absolute form, lower-cased, or
 * `undefined` for an origin-form path. RFC 9112 §3.2.2 has the server use it instead of the `Host` header.
 */
export function targetOrigin(path: string): string | undefined {
  if (path.charCodeAt(0) === 0x2f) return undefined;
  // Scheme and host are case-insensitive (RFC 3986 §6.2.2.1): write them the usual way.
  return ABSOLUTE_FORM.exec(path)?.[0].toLowerCase();
}
