import type { IncomingMessage } from 'node:http';
import type { HeaderValue, ScimRequestHead, ScimResponse } from '../core/types.js';
import type { BodyLimits } from './body-limits.js';
import type { BodyRead } from './body-collector.js';
import { buildScimHead } from './build-scim-head.js';
import { lingerIfClosing } from './close-in-stages.js';
import { NodeServerIncoming } from './node-server-incoming.js';
import { hasNoBody, readNodeBody } from './read-node-body.js';
import { readWebBody } from './read-web-body.js';

/** What an adapter hands {@link runScim}: the head, and how to read the body if there is one. */
export interface FetchRequestParts {
  readonly head: ScimRequestHead;
  readonly read: (() => Promise<BodyRead>) | undefined;
  /** Under `@hono/node-server`, the node request of a request that declares a body. */
  readonly incoming?: IncomingMessage;
}

/**
 * Turns Web `Request`s into their heads and body readers. Under `@hono/node-server` (its
 * `env.incoming`, see {@link NodeServerIncoming}) the headers and the body come from the node
 * request; everywhere else from the Web `Request`.
 */
export class FetchRequestReader {
  private readonly incoming = new NodeServerIncoming();

  /** @param limits - the body read limit and timeout. */
  constructor(private readonly limits: BodyLimits) {}

  /**
   * The head and body reader of `request`; `env` is what the runtime passed after it, and
   * `readBody` reads the Web body when the caller knows a cheaper way (a framework's cache).
   */
  parts(request: Request, env: unknown, readBody?: () => Promise<BodyRead>): FetchRequestParts {
    const { limits } = this;
    const incoming = this.incoming.of(request, env);
    if (incoming !== undefined) {
      const { headers } = incoming;
      const head = fetchHead(request, headers);
      if (hasNoBody(headers)) return { head, read: undefined };
      return { head, read: () => readNodeBody(incoming, limits), incoming };
    }
    const head = fetchHead(request, Object.fromEntries(request.headers));
    const stream = request.body;
    if (stream === null) return { head, read: undefined };
    return { head, read: readBody ?? (() => readWebBody(stream, limits)) };
  }
}

/** Turns a Web `Request`'s method and URL, with its headers, into a {@link ScimRequestHead}. */
export function fetchHead(
  request: Request,
  headers: Readonly<Record<string, HeaderValue>>,
): ScimRequestHead {
  const { origin, target } = splitRequestUrl(request.url);
  return buildScimHead(request.method, target, headers, origin);
}

/**
 * Splits a `Request`'s URL into its origin and its target (path and query, no fragment), as
 * `new URL(url)`'s `origin` and `pathname + search` would, without parsing it again: a
 * `Request`'s `url` is already a serialised absolute URL, `scheme://host[:port]/path?query#frag`,
 * without credentials.
 */
export function splitRequestUrl(url: string): { origin: string; target: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash < 0) return { origin: url, target: '/' };
  const hash = url.indexOf('#', slash);
  return {
    origin: url.slice(0, slash),
    target: hash < 0 ? url.slice(slash) : url.slice(slash, hash),
  };
}

/**
 * Turns the core's answer to a request into a Web `Response`. Under `@hono/node-server`, an
 * answer that closes the connection over an unread upload closes it in stages (see
 * {@link lingerIfClosing}).
 */
export function answerFetch(
  answer: Promise<ScimResponse>,
  { incoming }: FetchRequestParts,
): Promise<Response> {
  if (incoming === undefined) return answer.then(toFetchResponse);
  return answer.then((response) => {
    lingerIfClosing(incoming, response);
    return toFetchResponse(response);
  });
}

/** Turns a {@link ScimResponse} into a Web `Response`. */
export function toFetchResponse(response: ScimResponse): Response {
  return new Response(response.body ?? null, {
    status: response.status,
    headers: response.headers,
  });
}
