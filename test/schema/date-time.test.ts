import { describe, expect, it } from 'vitest';
import { normaliseDateTime, parseDateTime } from '../../src/schema/date-time.js';

describe('the one date-time rule', () => {
  it('stores every accepted form as xsd:dateTime with seconds and a ±hh:mm or Z zone', () => {
    for (const [sent, stored] of [
      ['2026-01-31T12:00:00Z', '2026-01-31T12:00:00Z'],
      ['2026-01-31T12:00:00+0200', '2026-01-31T12:00:00+02:00'],
      ['2026-01-31T12:00:00-05:30', '2026-01-31T12:00:00-05:30'],
      ['2026-01-31T12:00', '2026-01-31T12:00:00Z'],
      ['2026-01-31t12:00:00z', '2026-01-31T12:00:00Z'],
      ['2026-01-31T12:00:00.1234567Z', '2026-01-31T12:00:00.123Z'],
      ['2024-02-29T00:00:00+14:00', '2024-02-29T00:00:00+14:00'],
      ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00Z'],
    ]) {
      expect(normaliseDateTime(sent as string)).toBe(stored);
    }
  });

  it('refuses what no store can compare as an instant', () => {
    for (const bad of [
      '1',
      'March 7, 2026',
      '2026-01-31',
      '2026-13-01T00:00:00Z',
      // Date.parse rolls these over to another day; PostgreSQL refuses them.
      '2026-02-30T12:00:00Z',
      '2025-02-29T12:00:00Z',
      '2026-01-31T24:00:00Z',
      '2026-01-31T12:60:00Z',
      '2026-01-31T12:00:60Z',
      // Outside xsd's zone range: PostgreSQL's timestamptz answers an error for +16:00.
      '2026-01-31T12:00:00+16:00',
      '2026-01-31T12:00:00+14:30',
      // Year 0000 is not a year PostgreSQL reads.
      '0000-01-31T12:00:00Z',
      '2026-01-31T12:00:00+02',
    ]) {
      expect(normaliseDateTime(bad), bad).toBeUndefined();
      expect(parseDateTime(bad), bad).toBeNaN();
    }
  });

  it('reads a filter literal in any accepted form as the instant it names', () => {
    const instant = Date.parse('2026-01-31T10:00:00Z');
    expect(parseDateTime('2026-01-31T12:00:00+0200')).toBe(instant);
    expect(parseDateTime('2026-01-31T12:00:00+02:00')).toBe(instant);
    // No zone is UTC, never the server's local time.
    expect(parseDateTime('2026-01-31T10:00')).toBe(instant);
  });
});
