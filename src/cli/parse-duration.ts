const UNITS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** The longest duration the command line takes: ten years, far below what a `Date` can hold. */
export const MAX_DURATION_MS = 3650 * UNITS['d']!;

/**
 * Reads a duration written as a whole number and a unit: `10s`, `30m`, `12h`, `90d`.
 *
 * @throws Error naming the option and the accepted forms, for anything else or more than ten
 *   years.
 */
export function parseDuration(text: string, option: string): number {
  const match = /^(\d{1,7})([smhd])$/.exec(text.trim());
  const ms = match ? Number(match[1]) * (UNITS[match[2]!] ?? 0) : Number.NaN;
  if (!(ms <= MAX_DURATION_MS))
    throw new Error(
      `${option}: "${text}" is not a duration; write a whole number and s, m, h or d ` +
        '(10s, 30m, 12h, 90d), at most 3650d.',
    );
  return ms;
}
