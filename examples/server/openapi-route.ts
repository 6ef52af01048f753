import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  scimOpenApi,
  type OpenApiDocument,
  type ScimOpenApiOptions,
} from '../../src/openapi/index.js';

/**
 * Serves the SCIM service's OpenAPI 3.1 document (`GET` or `HEAD`), generated once from the
 * options the service was created with, with what `extend` adds (the server's own routes). The
 * document describes the API, not a tenant's data, so it needs no API key.
 */
export function openApiRoute(
  options: ScimOpenApiOptions,
  extend: (document: OpenApiDocument) => OpenApiDocument = (document) => document,
): (req: IncomingMessage, res: ServerResponse) => void {
  const body = JSON.stringify(extend(scimOpenApi(options)), null, 2);
  const headers = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-cache',
    'access-control-allow-origin': '*',
  };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
      res.end('Method not allowed\n');
      return;
    }
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  };
}
