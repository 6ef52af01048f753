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
