const DAY_MS = 86_400_000;
// 10000-01-01T00:00:00.000Z: from there on `toISOString` writes six digits and a sign.
const YEAR_10000_MS = 253_402_300_800_000;
const ZERO = 48;

/**
 * Formats the timestamp of a write, as `Date.prototype.toISOString` does
 * (`2026-11-22T14:41:36.486Z`). A speed device behind this one function: `toISOString` is a
 * runtime call, the costliest single thing a write does of its own (as the instruction counts
 * of `bench/http/count-instructions.ts` show), so the usual date, from 1970 to
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
  const century = Math.floor(year / 100);
  const centuryYear = year % 100;
  const tenths = milli % 100;
  return String.fromCharCode(
    tens(century),
    ones(century),
    tens(centuryYear),
    ones(centuryYear),
    45, // -
    tens(month),
    ones(month),
    45, // -
    tens(day),
    ones(day),
    84, // T
    tens(hour),
    ones(hour),
    58, // :
    tens(minute),
    ones(minute),
    58, // :
    tens(second),
    ones(second),
    46, // .
    ZERO + Math.floor(milli / 100),
    tens(tenths),
    ones(tenths),
    90, // Z
  );
}

// The character codes of the two digits of 0–99.
function tens(n: number): number {
  return ZERO + Math.floor(n / 10);
}

function ones(n: number): number {
  return ZERO + (n % 10);
}
