/**
 * The Express 4 and 5 adapter: `scimkit/express`.
 *
 * @module
 */
import type { NextFunction, Request, Response } from 'express';
import type { Scim } from '../../index.js';
import { type AdapterOptions, bodyReadCap } from '../../internal/adapter-options.js';
import { buildScimRequest } from '../../internal/build-scim-request.js';
import { readNodeBody } from '../../internal/read-node-body.js';
import { writeNodeResponse } from '../../internal/write-node-response.js';

export type { AdapterOptions } from '../../internal/adapter-options.js';

/**
 * Creates Express middleware (Express 4 and 5) that answers every request below its mount point
 * with `scim`. It reads the raw body itself; when a host body parser such as `express.json()`
 * already consumed it, the parsed `req.body` is handed over instead.
 *
 * @param scim - the service from `createScim`, with `basePath` equal to the mount path.
 * @param options - a `context` function and the body read limit.
 * @example
 * ```ts
 * import express from 'express';
 * import { scimExpress } from 'scimkit/express';
 *
 * const app = express();
 * app.use('/api/v1/scim/v2', scimExpress(scim));
 * app.listen(8080);
 * ```
 */
export function scimExpress(
  scim: Scim,
  options?: AdapterOptions<Request>,
): (req: Request, res: Response, next: NextFunction) => void {
  const cap = bodyReadCap(scim, options);
  return (req, res, next) => {
    const read = req.readableEnded ? Promise.resolve<unknown>(req.body) : readNodeBody(req, cap);
    read
      .then((body) => {
        const host = req.get('host');
        const baseUrl = host === undefined ? undefined : `${req.protocol}://${host}`;
        const context = options?.context?.(req);
        return scim.handle(
          buildScimRequest(req.method, req.originalUrl, req.headers, baseUrl, body, context),
        );
      })
      .then((response) => writeNodeResponse(res, response), next);
  };
}
