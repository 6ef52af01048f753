import type { ScimRequest } from '../types.js';

/** Reads the request's query into URLSearchParams, whichever form the adapter passed. */
export function queryParams(query: ScimRequest['query']): URLSearchParams {
  if (query === undefined) return new URLSearchParams();
  if (typeof query === 'string')
    return new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  if (query instanceof URLSearchParams) return query;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (typeof value === 'string') params.append(key, value);
    else for (const v of value) params.append(key, v);
  }
  return params;
}
