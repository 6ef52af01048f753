import { scimErrors } from '../../errors/index.js';
import { isClientText } from '../../json/client-text.js';
import { previewJson } from '../../json/preview-json.js';
import type { ScimRequest } from '../types.js';

/**
 * Reads the request's query into URLSearchParams, whichever form the adapter passed, and holds
 * every name and value to what a client may send (no U+0000, no lone surrogate).
 *
 * @throws ScimError 400 `invalidFilter` for such text in `filter`, else `invalidValue`.
 */
export function queryParams(query: ScimRequest['query']): URLSearchParams {
  if (query === undefined) return new URLSearchParams();
  let params: URLSearchParams;
  if (typeof query === 'string') {
    params = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query);
  } else if (query instanceof URLSearchParams) params = query;
  else {
    params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      if (typeof value === 'string') params.append(key, value);
      else for (const v of value) params.append(key, v);
    }
  }
  for (const [key, value] of params) {
    if (isClientText(key) && isClientText(value)) continue;
    const detail = `The query parameter ${previewJson(key)} holds U+0000 or an unpaired surrogate.`;
    throw key.toLowerCase() === 'filter'
      ? scimErrors.invalidFilter(detail)
      : scimErrors.invalidValue(detail);
  }
  return params;
}
