/**
 * The Web-standard adapter (`Request` → `Response`): `scimkit/fetch`, for Bun, Deno, Cloudflare
 * Workers and Next.js route handlers.
 *
 * @module
 */
import type { AdapterOptions, Scim } from '../../index.js';
import { bodyLimits } from '../../internal/body-limits.js';
import { answerFetch, FetchRequestReader } from '../../internal/fetch-translation.js';
import { runScim } from '../../internal/run-scim.js';

/**
 * Creates a `(request) => Promise<Response>` handler that answers every request with `scim`.
 * The core strips its `basePath`, so route every method below the mount point to it. The body
 * is read only once the core has admitted the request from its headers. The second argument is
 * what the runtime passes after the request; under `@hono/node-server` (`{ incoming, outgoing }`)
 * the headers and body are read from the node request, which is much cheaper there.
 *
 * @param scim - the service from `createScim`.
 * @param options - a `context` function, the body read limit and the body timeout.
 * @example
 * ```ts
 * import { scimFetch } from 'scimkit/fetch';
 *
 * // Bun and Deno
 * Bun.serve({ fetch: scimFetch(scim) });
 * // Next.js: app/api/v1/scim/v2/[[...path]]/route.ts
 * const handler = scimFetch(scim);
 * export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
 * ```
 */
export function scimFetch(
  scim: Scim,
  options?: AdapterOptions<Request>,
): (request: Request, env?: unknown) => Promise<Response> {
  const reader = new FetchRequestReader(bodyLimits(scim, options));
  return (request, env) => {
    const parts = reader.parts(request, env);
    return answerFetch(runScim(scim, parts.head, options?.context, request, parts.read), parts);
  };
}
