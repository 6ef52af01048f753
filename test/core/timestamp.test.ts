import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from '../../src/core/users/timestamp.js';

describe('isoTimestamp', () => {
  it('formats any date exactly as toISOString does, in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.date({ noInvalidDate: true }), { minLength: 1, maxLength: 20 }),
        (dates) => {
          for (const date of dates) expect(isoTimestamp(date)).toBe(date.toISOString());
        },
      ),
    );
  });

  it('formats every date from 1970 to 9999 (the ones it computes itself) as toISOString does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(isoTimestamp(new Date(ms))).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 5000 },
    );
    const edges = [
      '1970-01-01T00:00:00.000Z',
      '1972-02-29T23:59:59.999Z',
      '1999-12-31T23:59:59.999Z',
      '2000-02-29T12:00:00.000Z',
      '2000-03-01T00:00:00.000Z',
      '2100-02-28T23:59:59.999Z',
      '2100-03-01T00:00:00.000Z',
      '2400-02-29T00:00:00.001Z',
      '9999-12-31T23:59:59.999Z',
    ];
    for (const text of edges) expect(isoTimestamp(new Date(text))).toBe(text);
    expect(isoTimestamp(new Date(253_402_300_800_000))).toBe('+010000-01-01T00:00:00.000Z');
    expect(isoTimestamp(new Date(-1))).toBe('1969-12-31T23:59:59.999Z');
  });

  it('formats many dates within one second, before 1970 and at the edges of the milliseconds', () => {
    const base = Date.UTC(2026, 10, 22, 14, 41, 36);
    for (const ms of [0, 1, 9, 10, 99, 100, 999]) {
      for (const at of [base + ms, base + ms, -86_400_000 + ms, ms]) {
        expect(isoTimestamp(new Date(at))).toBe(new Date(at).toISOString());
      }
    }
    expect(isoTimestamp(new Date(Date.UTC(12345, 0, 1)))).toBe('+012345-01-01T00:00:00.000Z');
  });

  it('refuses an invalid date as toISOString does', () => {
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
