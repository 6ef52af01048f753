/**
 * Formats the timestamp of a write, as `Date.prototype.toISOString` does
 * (`2026-11-22T14:41:36.486Z`). A cache of the formatted second was measured and removed
 * (bench/RESULTS.md, "Issue 16 part 2"): it bought nothing callgrind could see.
 *
 * @throws RangeError for an invalid date, as `toISOString` does.
 */
export function isoTimestamp(date: Date): string {
  return date.toISOString();
}
