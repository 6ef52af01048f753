import type { IncomingMessage } from 'node:http';

/**
 * Finds the node request under a Web `Request` that `@hono/node-server` made; on every other
 * runtime there is none. node-server calls its fetch handler with `(request, { incoming,
 * outgoing })`, and its `Request` is a lightweight one that reads method and URL from
 * `incoming`; asking it for `headers` or `body` builds a full Web `Request` (a `Headers`, an
 * `AbortController`, a stream bridge), which on a GET costs more than the SCIM operation. With
 * `incoming`, an adapter takes the headers and the body from node as the node adapter does.
 */
export class NodeServerIncoming {
  /** The property under which node-server's `Request` held `incoming` last time. */
  private key: symbol | undefined;

  /**
   * `env.incoming`, when `request` holds it (a middleware may have replaced the request) and
   * nothing has read from it yet (then the Web body is the only complete copy); else `undefined`.
   */
  of(request: Request, env: unknown): IncomingMessage | undefined {
    if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
    const incoming = (env as { readonly incoming: unknown }).incoming;
    if (!isUnreadNodeRequest(incoming) || request.bodyUsed) return undefined;
    const held = request as unknown as Record<symbol, unknown>;
    if (this.key !== undefined && held[this.key] === incoming) return incoming;
    for (const key of Object.getOwnPropertySymbols(request)) {
      if (held[key] !== incoming) continue;
      this.key = key;
      return incoming;
    }
    return undefined;
  }
}

function isUnreadNodeRequest(value: unknown): value is IncomingMessage {
  if (typeof value !== 'object' || value === null) return false;
  const incoming = value as Partial<IncomingMessage> & { readonly rawBody?: unknown };
  return (
    typeof incoming.headers === 'object' &&
    typeof incoming.on === 'function' &&
    incoming.readableDidRead === false &&
    // A host that buffered the body (Cloud Functions) leaves it here, not in the stream.
    incoming.rawBody === undefined
  );
}
