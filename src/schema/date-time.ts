// xsd:dateTime as IdPs send it: seconds, the fraction and the zone may be left out, and the
// zone may be written without its colon (`+0200`, as some IdPs do).
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))?$/i;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number);
}

/**
 * Writes a date-time the way scimkit stores it: `2026-01-31T12:00:00+02:00` for
 * `2026-01-31T12:00+0200`, or `undefined` when the text is not an xsd:dateTime naming a real
 * instant. The form is xsd:dateTime with seconds, at most three fraction digits (milliseconds,
 * the precision every store compares at; further digits are dropped), `T` and `Z` upper-case,
 * and the zone as given written `±hh:mm`; a value without a zone is read as UTC and gets `Z`,
 * never server-local time. Years 0001–9999, real calendar days (no 30 February), hours 00–23,
 * zones within ±14:00 (xsd's range, which PostgreSQL's `timestamptz` also reads).
 *
 * This is scimkit's one date-time rule: values written by POST, PUT and PATCH are stored in
 * this form, so every store compares them as instants, and filter literals are read by
 * {@link parseDateTime}, which accepts exactly the same texts.
 *
 * @see RFC 7643 §2.3.5
 */
export function normaliseDateTime(text: string): string | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '00', fraction, zulu, sign, zh, zm] = m as unknown as string[];
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  let zone = 'Z';
  if (sign !== undefined && !zulu) {
    const hours = Number(zh);
    const minutes = Number(zm);
    if (hours > 14 || minutes > 59 || (hours === 14 && minutes > 0)) return undefined;
    zone = `${sign}${zh}:${zm}`;
  }
  const ms = fraction === undefined ? '' : `.${fraction.slice(0, 3)}`;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}${ms}${zone}`;
}

/**
 * Reads an xsd:dateTime as milliseconds since the epoch, or `NaN` when the text is not one.
 * It accepts exactly the texts `normaliseDateTime` does, so a value the server stored can
 * always be found by a date filter, and a filter literal means the same on every store.
 * Exported by `scimkit/filter` for a store that compares dateTime values itself (filter
 * pushdown), so that it reads a filter literal as the core does.
 *
 * @see RFC 7643 §2.3.5; RFC 7644 §3.4.2.2
 */
export function parseDateTime(text: string): number {
  const normal = normaliseDateTime(text);
  return normal === undefined ? NaN : Date.parse(normal);
}

/**
 * Tells whether a string is an xsd:dateTime such as `2026-01-31T12:00:00Z` that names a real
 * instant (see `normaliseDateTime` for the forms accepted). A bare `Date.parse` would also
 * take `"1"`, `"March 7"` or `2026-02-30`, which no IdP means as a date-time.
 *
 * @see RFC 7643 §2.3.5
 */
export function isDateTime(value: string): boolean {
  return normaliseDateTime(value) !== undefined;
}
