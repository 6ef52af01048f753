/**
 * The `node:http` adapter: `scimkit/node`.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Scim } from '../../index.js';
import { type AdapterOptions, bodyReadCap } from '../../internal/adapter-options.js';
import { buildScimRequest } from '../../internal/build-scim-request.js';
import { nodeBaseUrl } from '../../internal/node-base-url.js';
import { readNodeBody } from '../../internal/read-node-body.js';
import { writeNodeResponse } from '../../internal/write-node-response.js';

export type { AdapterOptions } from '../../internal/adapter-options.js';

/**
 * Creates a `node:http` request listener that answers every request with `scim`. The core
 * strips its `basePath`, so route the whole mount point (or the whole server) to it.
 *
 * @param scim - the service from `createScim`.
 * @param options - a `context` function and the body read limit.
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { scimNode } from 'scimkit/node';
 *
 * createServer(scimNode(scim)).listen(8080);
 * ```
 */
export function scimNode(
  scim: Scim,
  options?: AdapterOptions<IncomingMessage>,
): (req: IncomingMessage, res: ServerResponse) => void {
  const cap = bodyReadCap(scim, options);
  return (req, res) => {
    readNodeBody(req, cap)
      .then((body) => {
        const context = options?.context?.(req);
        const target = req.url ?? '/';
        const method = req.method ?? 'GET';
        return scim.handle(
          buildScimRequest(method, target, req.headers, nodeBaseUrl(req), body, context),
        );
      })
      // Reading fails only when the client went away; there is nobody left to answer.
      .then(
        (response) => writeNodeResponse(res, response),
        () => res.destroy(),
      );
  };
}
