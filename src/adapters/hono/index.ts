/**
 * The Hono 4 adapter: `scimkit/hono`.
 *
 * @module
 */
import type { Context } from 'hono';
import type { AdapterOptions, Scim } from '../../index.js';
import { bodyLimits } from '../../internal/body-limits.js';
import { fetchHead, toFetchResponse } from '../../internal/fetch-translation.js';
import { readWebBody } from '../../internal/read-web-body.js';
import { runScim } from '../../internal/run-scim.js';

/**
 * Creates a Hono handler that answers every request below its route with `scim`. Mount it on
 * every method with a trailing wildcard; it works on every runtime Hono runs on. The body is
 * read only once the core has admitted the request from its headers. A body that a middleware
 * before it already read (`c.req.json()`) is taken from Hono's body cache.
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
  const limits = bodyLimits(scim, options);
  return async (c) => {
    const raw = c.req.raw;
    const stream = raw.body;
    const read =
      stream === null
        ? undefined
        : raw.bodyUsed
          ? // A middleware already read it (a validator, a logger): Hono keeps it cached.
            () => c.req.text().then((body) => ({ body, end: 'complete' as const }))
          : () => readWebBody(stream, limits);
    return toFetchResponse(await runScim(scim, fetchHead(raw), options?.context, c, read));
  };
}
