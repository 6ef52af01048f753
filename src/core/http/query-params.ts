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
    if (decodesToClientText(query)) return params;
  } else if (query instanceof URLSearchParams) params = query;
  else {
    params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      if (typeof value === 'string') params.append(key, value);
      else for (const v of value) params.append(key, v);
    }
  }
  // Every name and value, walked: what the text of a string query tells only in most cases.
  for (const [key, value] of params) {
    if (isClientText(key) && isClientText(value)) continue;
    const detail = `The query parameter ${previewJson(key)} holds U+0000 or an unpaired surrogate.`;
    throw key.toLowerCase() === 'filter'
      ? scimErrors.invalidFilter(detail)
      : scimErrors.invalidValue(detail);
  }
  return params;
}

// A U+0000, sent as is or as `%00`, or any character outside ASCII.
// eslint-disable-next-line no-control-regex -- U+0000 is what it looks for
const MAY_DECODE_TO_NON_CLIENT_TEXT = /%00|[^\x01-\x7f]/;

/**
 * Tells, from a query string alone, that every name and value `URLSearchParams` decodes from
 * it is client text, which spares walking them (an iterator and an entry array each) on every
 * request. For an ASCII query it is so unless it holds a U+0000 or `%00`: percent-encoded
 * bytes decode as UTF-8, every ill-formed sequence (an encoded surrogate among them) becoming
 * U+FFFD. A query with other characters is walked: Node 20 decodes some of them mixed with
 * percent-encoding to U+0000 (`😀%ED%A0%80`). Held to the walk by a property test
 * (test/core/query-params.test.ts).
 */
export function decodesToClientText(query: string): boolean {
  return !MAY_DECODE_TO_NON_CLIENT_TEXT.test(query);
}
