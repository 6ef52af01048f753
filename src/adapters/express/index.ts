/**
 * The Express 4 and 5 adapter: `scimkit/express`.
 *
 * @module
 */
import type { NextFunction, Request, Response } from 'express';
import type { AdapterOptions, Scim } from '../../index.js';
import { bodyLimits } from '../../internal/body-limits.js';
import { buildScimHead } from '../../internal/build-scim-head.js';
import { readNodeBody } from '../../internal/read-node-body.js';
import { runScim } from '../../internal/run-scim.js';
import { writeNodeResponse } from '../../internal/write-node-response.js';

/**
 * Creates Express middleware (Express 4 and 5) that answers every request below its mount point
 * with `scim`. It reads the raw body itself, and only once the core has admitted the request
 * from its headers; when a host body parser such as `express.json()` already consumed it, the
 * parsed `req.body` is handed over instead.
 *
 * @param scim - the service from `createScim`, with `basePath` equal to the mount path.
 * @param options - a `context` function, the body read limit and the body timeout.
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
  const limits = bodyLimits(scim, options);
  return (req, res, next) => {
    const host = req.get('host');
    const baseUrl = host === undefined ? undefined : `${req.protocol}://${host}`;
    const head = buildScimHead(req.method, req.originalUrl, req.headers, baseUrl);
    const read = req.readableEnded
      ? () => Promise.resolve({ body: req.body as unknown, end: 'complete' as const })
      : () => readNodeBody(req, limits);
    runScim(scim, head, options?.context, req, read).then(
      (response) => writeNodeResponse(res, response),
      next,
    );
  };
}
