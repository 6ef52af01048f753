const DAY_MS = 86_400_000;
// 10000-01-01T00:00:00.000Z: from there on `toISOString` writes six digits and a sign.
const YEAR_10000_MS = 253_402_300_800_000;
const ZERO = 48;

/**
 * Formats the timestamp of a write, as `Date.prototype.toISOString` does
 * (`2026-11-22T14:41:36.486Z`). A speed device behind this one function: `toISOString` is a
 * runtime call that costs about 7,500 instructions, the most a write spends on one thing of
 * its own (bench/RESULTS.md, "Writes: the core's own work"), so the usual date, from 1970 to
 * 9999, is computed here from its milliseconds (days to a civil date as in
 * `chrono`'s `civil_from_days`) and written in one flat string; any other date, an invalid one
 * included, is `toISOString`'s. `test/core/timestamp.test.ts` holds it to `toISOString`.
 *
 * @throws RangeError for an invalid date, as `toISOString` does.
 */
export function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= 0 && ms < YEAR_10000_MS)) return date.toISOString();
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  // Days since 1970-01-01 to year, month and day (proleptic Gregorian; eras of 400 years).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  // One flat string of 24 characters, as toISOString gives (a concatenation would be a tree
  // of pieces, kept as such in every stored version).
  return String.fromCharCode(
    ZERO + Math.floor(year / 1000),
    ZERO + (Math.floor(year / 100) % 10),
    ZERO + (Math.floor(year / 10) % 10),
    ZERO + (year % 10),
    45,
    ZERO + Math.floor(month / 10),
    ZERO + (month % 10),
    45,
    ZERO + Math.floor(day / 10),
    ZERO + (day % 10),
    84,
    ZERO + Math.floor(hour / 10),
    ZERO + (hour % 10),
    58,
    ZERO + Math.floor(minute / 10),
    ZERO + (minute % 10),
    58,
    ZERO + Math.floor(second / 10),
    ZERO + (second % 10),
    46,
    ZERO + Math.floor(milli / 100),
    ZERO + (Math.floor(milli / 10) % 10),
    ZERO + (milli % 10),
    90,
  );
}
