import type { ScimRequest, ScimResponse } from '../core/types.js';
import { buildScimRequest } from './build-scim-request.js';
import { readWebBody } from './read-web-body.js';

/** Turns a Web `Request` into a {@link ScimRequest}, reading at most `cap` body bytes. */
export async function fromFetchRequest(
  request: Request,
  cap: number,
  context: unknown,
): Promise<ScimRequest> {
  const url = new URL(request.url);
  const body = await readWebBody(request.body, cap);
  const headers = Object.fromEntries(request.headers);
  return buildScimRequest(
    request.method,
    url.pathname + url.search,
    headers,
    url.origin,
    body,
    context,
  );
}

/** Turns a {@link ScimResponse} into a Web `Response`. */
export function toFetchResponse(response: ScimResponse): Response {
  return new Response(response.body ?? null, {
    status: response.status,
    headers: response.headers,
  });
}
