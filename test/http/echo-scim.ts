import type { BodyEnd, Scim, ScimRequest, ScimResponse } from '../../src/index.js';

/** What the echo service saw, as JSON. */
export interface Echo {
  readonly method: string;
  readonly path: string;
  readonly query: unknown;
  readonly headers: Record<string, unknown>;
  readonly baseUrl: string | null;
  readonly context: unknown;
  /** `bytes`, `string`, `undefined` or `object` (a value a host body parser produced). */
  readonly bodyKind: string;
  readonly bodyText: string | null;
  readonly bodyBytes: number;
  readonly bodyValue: unknown;
  /** How the adapter's read ended, when not `complete`. */
  readonly bodyEnd?: string;
}

function describeBody(
  body: unknown,
): Pick<Echo, 'bodyKind' | 'bodyText' | 'bodyBytes' | 'bodyValue'> {
  if (body instanceof Uint8Array) {
    return {
      bodyKind: 'bytes',
      bodyText: new TextDecoder().decode(body),
      bodyBytes: body.length,
      bodyValue: null,
    };
  }
  if (typeof body === 'string') {
    return {
      bodyKind: 'string',
      bodyText: body,
      bodyBytes: Buffer.byteLength(body),
      bodyValue: null,
    };
  }
  return {
    bodyKind: body === undefined ? 'undefined' : 'object',
    bodyText: null,
    bodyBytes: 0,
    bodyValue: body ?? null,
  };
}

/**
 * Builds a fake {@link Scim} whose `handle` answers with the request it received, so a test can
 * check that an adapter translated it exactly. A request carrying an `x-respond` header gets that
 * header's JSON {@link ScimResponse} back instead, so a test can check how the adapter writes one.
 */
export function echoScim(): Scim {
  return {
    maxBodyBytes: 1024 * 1024,
    async handle(request: ScimRequest): Promise<ScimResponse> {
      const respond = request.headers['x-respond'];
      if (typeof respond === 'string') return JSON.parse(respond) as ScimResponse;
      const echo: Echo = {
        method: request.method,
        path: request.path,
        query: request.query ?? null,
        headers: { ...request.headers },
        baseUrl: request.baseUrl ?? null,
        context: request.context ?? null,
        ...describeBody(request.body),
      };
      return {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(echo),
      };
    },
    // Admits every request, calling the context hook as the real core does, and closes the
    // connection as the real core does when the adapter left body bytes unread.
    async begin(head, context) {
      return async (body: unknown, end: BodyEnd = 'complete') => {
        const response = await this.handle({ ...head, body, context: context?.() ?? head.context });
        if (end === 'complete') return response;
        // Without the text: a large answer on a closing connection with unread bytes behind it
        // may be cut by the reset that closing sends (the core's answers there are small errors).
        const echo = JSON.parse(response.body ?? '{}') as Record<string, unknown>;
        return {
          status: response.status,
          headers: { ...response.headers, connection: 'close' },
          body: JSON.stringify({ ...echo, bodyText: null, bodyEnd: end }),
        };
      };
    },
    bodyTimeoutMs: 10_000,
    users: {
      activate: () => Promise.resolve(null),
      resendInvitation: () => Promise.resolve(false),
      get: () => Promise.resolve(null),
      groups: () => Promise.resolve(null),
    },
    tenants: {
      delete: () => Promise.resolve({ keys: 0, resources: {} }),
      export: async function* () {},
    },
    events: {
      list: () => Promise.resolve({ events: [], next: undefined }),
      purge: () => Promise.resolve(0),
      subscribe: () => {
        throw new Error('echo has no subscribers');
      },
    },
    on: () => () => undefined,
    onRequest: () => () => undefined,
    mail: undefined,
    close: () => Promise.resolve(),
  };
}
