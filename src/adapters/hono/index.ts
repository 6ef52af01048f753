/**
 * The Hono 4 adapter: `scimkit/hono`.
 *
 * @module
 */
import type { Context } from 'hono';
import type { AdapterOptions, Scim } from '../../index.js';
import { bodyLimits } from '../../internal/body-limits.js';
import { answerFetch, FetchRequestReader } from '../../internal/fetch-translation.js';
import { runScim } from '../../internal/run-scim.js';

/**
 * Creates a Hono handler that answers every request below its route with `scim`. Mount it on
 * every method with a trailing wildcard; it works on every runtime Hono runs on. The body is
 * read only once the core has admitted the request from its headers. A body that a middleware
 * before it already read (`c.req.json()`) is taken from Hono's body cache. On
 * `@hono/node-server` the headers and the body are read from the node request (`c.env.incoming`),
 * which is much cheaper there than the Web `Request` built over it.
 *
 * @param scim - the service from `createScim`, with `basePath` equal to the mount path.
 * @param options - a `context` function (it receives Hono's `Context`, so `c.env` and
 *   `c.get(...)` reach the core), the body read limit and the body timeout.
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { scimHono } from 'scimkit/hono';
 *
 * const app = new Hono();
 * app.all('/api/v1/scim/v2/*', scimHono(scim));
 * export default app;
 * ```
 */
export function scimHono(
  scim: Scim,
  options?: AdapterOptions<Context>,
): (c: Context) => Promise<Response> {
  const reader = new FetchRequestReader(bodyLimits(scim, options));
  return (c) => {
    const raw = c.req.raw;
    // A middleware already read the body (a validator, a logger): Hono keeps it cached.
    const cached = raw.bodyUsed
      ? () => c.req.text().then((body) => ({ body, end: 'complete' as const }))
      : undefined;
    const parts = reader.parts(raw, c.env, cached);
    return answerFetch(runScim(scim, parts.head, options?.context, c, parts.read), parts);
  };
}
