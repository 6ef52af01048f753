/** The weak ETag of a resource's first version. */
export const FIRST_VERSION = 'W/"1"';

/**
 * Computes the next weak ETag after `version`: `W/"n"` becomes `W/"n+1"`. A version in
 * another form (written by a custom store) restarts the count above 1.
 */
export function nextVersion(version: string): string {
  const match = /^W\/"(\d+)"$/.exec(version);
  const n = match?.[1] === undefined ? 1 : Number(match[1]);
  return `W/"${n + 1}"`;
}
