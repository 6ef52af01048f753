/**
 * The Hono 4 adapter: `scimkit/hono`.
 *
 * @module
 */
import type { Context } from 'hono';
import type { Scim } from '../../index.js';
import { type AdapterOptions, bodyReadCap } from '../../internal/adapter-options.js';
import { fromFetchRequest, toFetchResponse } from '../../internal/fetch-translation.js';

export type { AdapterOptions } from '../../internal/adapter-options.js';

/**
 * Creates a Hono handler that answers every request below its route with `scim`. Mount it on
 * every method with a trailing wildcard; it works on every runtime Hono runs on.
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
  const cap = bodyReadCap(options);
  return async (c) => {
    const scimRequest = await fromFetchRequest(c.req.raw, cap, options?.context?.(c));
    return toFetchResponse(await scim.handle(scimRequest));
  };
}
