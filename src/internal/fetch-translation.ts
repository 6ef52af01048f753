import type { ScimRequest, ScimResponse } from '../core/types.js';
import { buildScimRequest } from './build-scim-request.js';

/** Turns a Web `Request` and its body, read by the caller, into a {@link ScimRequest}. */
export function fromFetchRequest(request: Request, body: unknown, context: unknown): ScimRequest {
  const url = new URL(request.url);
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
