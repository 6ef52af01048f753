import type { ScimRequestHead, ScimResponse } from '../core/types.js';
import { buildScimHead } from './build-scim-head.js';

/** Turns a Web `Request`'s method, URL and headers into a {@link ScimRequestHead}. */
export function fetchHead(request: Request): ScimRequestHead {
  const url = new URL(request.url);
  const headers = Object.fromEntries(request.headers);
  return buildScimHead(request.method, url.pathname + url.search, headers, url.origin);
}

/** Turns a {@link ScimResponse} into a Web `Response`. */
export function toFetchResponse(response: ScimResponse): Response {
  return new Response(response.body ?? null, {
    status: response.status,
    headers: response.headers,
  });
}
