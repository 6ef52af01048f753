import type { IncomingMessage } from 'node:http';

/**
 * Returns `scheme://host[:port]` of a node request from its socket and `Host` header, or
 * `undefined` without a `Host` header. Servers behind a proxy set `publicBaseUrl` instead.
 */
export function nodeBaseUrl(request: IncomingMessage): string | undefined {
  const host = request.headers.host;
  if (host === undefined) return undefined;
  const secure = 'encrypted' in request.socket && request.socket.encrypted === true;
  return `${secure ? 'https' : 'http'}://${host}`;
}
