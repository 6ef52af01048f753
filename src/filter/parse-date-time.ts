const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/i;

/**
 * Reads an `xsd:dateTime` (RFC 7643 §2.3.5) as milliseconds since the epoch, or `NaN` when
 * the text is not one. A value without a time zone is read as UTC, never as server-local
 * time, so that a filter means the same on every machine.
 */
export function parseDateTime(text: string): number {
  const match = DATE_TIME.exec(text);
  if (!match) return NaN;
  return Date.parse(match[1] === undefined ? `${text}Z` : text);
}
