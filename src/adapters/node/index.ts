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
import { hasNoBody, readNodeBody } from '../../internal/read-node-body.js';
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
    const answer = (body: Uint8Array | undefined): void => {
      let context: unknown;
      try {
        context = options?.context?.(req);
      } catch {
        // The host's `context` failed: there is nothing to answer with.
        res.destroy();
        return;
      }
      const { method = 'GET', url = '/', headers } = req;
      const request = buildScimRequest(method, url, headers, nodeBaseUrl(req), body, context);
      // `handle` never rejects: every failure is a SCIM error response.
      void scim.handle(request).then((response) => writeNodeResponse(res, response));
    };
    // A request without a body is answered at once. Reading fails only when the client went
    // away, and then there is nobody to answer.
    if (hasNoBody(req.headers)) answer(undefined);
    else readNodeBody(req, cap).then(answer, () => res.destroy());
  };
}
