import type { ServerResponse } from 'node:http';
import type { ScimResponse } from '../core/types.js';
import { lingerIfClosing } from './close-in-stages.js';

/**
 * Writes a {@link ScimResponse} to a node response exactly: status, headers and body. A body
 * goes out with its `Content-Length`, so node sends the head and the body in one write instead
 * of framing the body in chunks. An answer that closes the connection over an unread upload
 * closes it in stages (see {@link lingerIfClosing}).
 */
export function writeNodeResponse(res: ServerResponse, response: ScimResponse): void {
  const { body, headers } = response;
  lingerIfClosing(res.req, response);
  if (body === undefined) {
    res.writeHead(response.status, headers).end();
    return;
  }
  // The flat [name, value, ...] form: no second headers object to build.
  const raw: string[] = [];
  for (const name in headers) raw.push(name, headers[name] as string);
  raw.push('content-length', String(Buffer.byteLength(body)));
  res.writeHead(response.status, raw).end(body);
}
