/**
 * The `node:http` adapter: `scimkit/node`.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdapterOptions, Scim } from '../../index.js';
import { bodyLimits } from '../../internal/body-limits.js';
import { buildScimHead } from '../../internal/build-scim-head.js';
import { nodeBaseUrl } from '../../internal/node-base-url.js';
import { hasNoBody, readNodeBody } from '../../internal/read-node-body.js';
import { runScim } from '../../internal/run-scim.js';
import { writeNodeResponse } from '../../internal/write-node-response.js';

export { deferContinue } from '../../internal/defer-continue.js';

/**
 * Creates a `node:http` request listener that answers every request with `scim`. The core
 * strips its `basePath`, so route the whole mount point (or the whole server) to it. The core
 * decides on the headers first; the body is read only for a request it admits, and an early
 * answer closes the connection instead of reading an upload nobody wants. Install
 * {@link deferContinue} on the server so that `Expect: 100-continue` gets its `100` only then.
 *
 * @param scim - the service from `createScim`.
 * @param options - a `context` function, the body read limit and the body timeout.
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
  const limits = bodyLimits(scim, options);
  const context = options?.context;
  return (req, res) => {
    const { method = 'GET', url = '/', headers } = req;
    const head = buildScimHead(method, url, headers, nodeBaseUrl(req));
    // Most GETs announce no body: no stream machinery for them.
    const read = hasNoBody(headers) ? undefined : () => readNodeBody(req, limits);
    // Never rejects: every failure is a SCIM error response.
    void runScim(scim, head, context, req, read).then((response) =>
      writeNodeResponse(res, response),
    );
  };
}
