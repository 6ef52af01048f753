// A resource's version (meta.version, its weak ETag): the core writes it, stores that change a
// resource outside the core's write path (memberships) bump it the same way.
/** The weak ETag of a resource's first version. */
export const FIRST_VERSION = 'W/"1"';

/**
 * Computes the next weak ETag after `version`: `W/"n"` becomes `W/"n+1"`. A version in
 * another form (written by a custom store) restarts the count above 1.
 */
export function nextVersion(version: string): string {
  const digits = version.startsWith('W/"') && version.endsWith('"') ? version.slice(3, -1) : '';
  const n = /^\d+$/.test(digits) ? Number(digits) : 1;
  return `W/"${n + 1}"`;
}
