import type { HeaderValue, ScimRequestHead } from '../core/types.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Builds a {@link ScimRequestHead} from what every framework offers: the method, the request
 * target (path and query as sent), the headers and the request's origin. Leaves out an absent
 * origin instead of setting it to `undefined`, so the core sees one shape from every adapter.
 */
export function buildScimHead(
  method: string,
  target: string,
  headers: Readonly<Record<string, HeaderValue>>,
  baseUrl: string | undefined,
): ScimRequestHead {
  const mark = target.indexOf('?');
  const head: Mutable<ScimRequestHead> = {
    method,
    path: mark < 0 ? target : target.slice(0, mark),
    query: mark < 0 ? '' : target.slice(mark + 1),
    headers,
  };
  if (baseUrl !== undefined) head.baseUrl = baseUrl;
  return head;
}
