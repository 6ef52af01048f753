import type { ServerResponse } from 'node:http';
import type { ScimResponse } from '../core/types.js';

/** Writes a {@link ScimResponse} to a node response exactly: status, headers and body. */
export function writeNodeResponse(res: ServerResponse, response: ScimResponse): void {
  res.writeHead(response.status, response.headers);
  res.end(response.body);
}
