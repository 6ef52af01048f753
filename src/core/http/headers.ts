import type { HeaderValue } from '../types.js';

/** Reads one request header by lower-case name, whatever case the adapter used for keys. */
export function getHeader(
  headers: Readonly<Record<string, HeaderValue>>,
  name: string,
): string | undefined {
  let value = headers[name];
  if (value === undefined) {
    for (const key in headers) {
      if (key.length === name.length && key.toLowerCase() === name) {
        value = headers[key];
        break;
      }
    }
  }
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : value.join(', ');
}
