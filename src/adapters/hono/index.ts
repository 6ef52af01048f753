/**
 * The Hono 4 adapter: `scimkit/hono`.
 *
 * @module
 */
import type { Context } from 'hono';
import type { Scim } from '../../index.js';
import { type AdapterOptions, bodyReadCap } from '../../internal/adapter-options.js';
import { fromFetchRequest, toFetchResponse } from '../../internal/fetch-translation.js';
import { readWebBody } from '../../internal/read-web-body.js';

export type { AdapterOptions } from '../../internal/adapter-options.js';

/**
 * Creates a Hono handler that answers every request below its route with `scim`. Mount it on
 * every method with a trailing wildcard; it works on every runtime Hono runs on. A body that a
 * middleware before it already read (`c.req.json()`) is taken from Hono's body cache.
 *
 * @param scim - the service from `createScim`, with `basePath` equal to the mount path.
 * @param options - a `context` function (it receives Hono's `Context`, so `c.env` and
 *   `c.get(...)` reach the core) and the body read limit.
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
  const cap = bodyReadCap(scim, options);
  return async (c) => {
    const raw = c.req.raw;
    // When a middleware already read the body (a validator, a logger), Hono keeps it cached.
    const body = raw.bodyUsed ? await c.req.text() : await readWebBody(raw.body, cap);
    const response = await scim.handle(fromFetchRequest(raw, body, options?.context?.(c)));
    return toFetchResponse(response);
  };
}
