// xsd:dateTime as IdPs send it; seconds and the zone may be left out, as the PATCH engine allows.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Tells whether a string is an xsd:dateTime such as `2026-01-31T12:00:00Z` that names a real
 * instant. A bare `Date.parse` would also take `"1"` or `"March 7"`, which no IdP means as a
 * date-time.
 *
 * @see RFC 7643 §2.3.5
 */
export function isDateTime(value: string): boolean {
  return DATE_TIME.test(value) && !Number.isNaN(Date.parse(value));
}
