import type { HeaderValue, ScimRequest } from '../core/types.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Builds a {@link ScimRequest} from what every framework offers: the method, the request target
 * (path and query as sent), headers and the rest. Leaves out absent parts instead of setting
 * them to `undefined`, so the core sees one shape from every adapter.
 */
export function buildScimRequest(
  method: string,
  target: string,
  headers: Readonly<Record<string, HeaderValue>>,
  baseUrl: string | undefined,
  body: unknown,
  context: unknown,
): ScimRequest {
  const mark = target.indexOf('?');
  const request: Mutable<ScimRequest> = {
    method,
    path: mark < 0 ? target : target.slice(0, mark),
    query: mark < 0 ? '' : target.slice(mark + 1),
    headers,
  };
  if (baseUrl !== undefined) request.baseUrl = baseUrl;
  if (body !== undefined) request.body = body;
  if (context !== undefined) request.context = context;
  return request;
}
