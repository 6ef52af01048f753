/**
 * A named cache (module state with a reason, issue 16): the last whole second a write
 * timestamp fell in, formatted up to its milliseconds. `Date.prototype.toISOString` formats
 * the whole date each time, which cost a write more than anything else it does with the date
 * (bench/RESULTS.md, "Issue 16 part 2"); writes come many to a second, so the second is
 * formatted once and each write appends its milliseconds. Shared by every service in the
 * process: what it holds is a pure function of the second, so no service can see another's.
 */
const secondCache = { second: Number.NaN, text: '' };

/**
 * Formats a date as `Date.prototype.toISOString` does (`2026-11-22T14:41:36.486Z`), for the
 * timestamps of every write, through {@link secondCache}.
 *
 * @throws RangeError for an invalid date, as `toISOString` does.
 */
export function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  const second = Math.floor(ms / 1000);
  if (second !== secondCache.second) {
    const text = new Date(second * 1000).toISOString();
    // Years outside 0000–9999 print with six digits and a sign: leave those to toISOString.
    if (text.length !== 24) return date.toISOString();
    secondCache.text = text.slice(0, 20);
    secondCache.second = second;
  }
  const milli = ms - second * 1000;
  return `${secondCache.text}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
