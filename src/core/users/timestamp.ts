// The second of the last timestamp made, and its text up to the milliseconds.
let lastSecond = Number.NaN;
let secondText = '';

/**
 * Formats a date as `Date.prototype.toISOString` does (`2026-11-22T14:41:36.486Z`), for the
 * timestamps of every write. `toISOString` formats the whole date each time, which costs a
 * write more than everything else it does with the date; this formats a second once and only
 * appends the milliseconds for the other writes in that second.
 *
 * @throws RangeError for an invalid date, as `toISOString` does.
 */
export function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    const text = new Date(second * 1000).toISOString();
    // Years outside 0000–9999 print with six digits and a sign: leave those to toISOString.
    if (text.length !== 24) return date.toISOString();
    secondText = text.slice(0, 20);
    lastSecond = second;
  }
  const milli = ms - second * 1000;
  return `${secondText}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
