import { scimErrors } from '../../errors/index.js';

function opaque(tag: string): string {
  const t = tag.trim();
  return t.startsWith('W/') ? t.slice(2) : t;
}

/**
 * Tells whether an `If-Match` / `If-None-Match` header value matches the current version,
 * with the weak comparison of RFC 9110 §8.8.3.2 (`*` matches any existing resource).
 */
export function etagMatches(header: string, version: string): boolean {
  if (header.trim() === '*') return true;
  const current = opaque(version);
  return header.split(',').some((tag) => opaque(tag) === current);
}

/**
 * Throws 412 when an `If-Match` header does not match the current version.
 *
 * @see RFC 7644 §3.14
 */
export function assertIfMatch(ifMatch: string | undefined, version: string): void {
  if (ifMatch !== undefined && !etagMatches(ifMatch, version)) {
    throw scimErrors.versionConflict(
      `If-Match ${ifMatch} does not match the current version ${version}.`,
    );
  }
}
