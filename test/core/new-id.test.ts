import { describe, expect, it } from 'vitest';
import { newId } from '../../src/core/resources/new-id.js';

describe('newId', () => {
  it('makes 26 URL-safe characters', () => {
    expect(newId()).toMatch(/^[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('increases strictly, within one millisecond and across many ids', () => {
    const now = Date.now() + 1000;
    const ids = Array.from({ length: 5000 }, (_, i) => newId(now + Math.floor(i / 1000)));
    for (let i = 1; i < ids.length; i++)
      expect((ids[i - 1] as string) < (ids[i] as string)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts the time first, so a later millisecond sorts after', () => {
    const now = Date.now() + 5000;
    const a = newId(now);
    const b = newId(now + 1);
    expect(a.slice(0, 10) < b.slice(0, 10)).toBe(true);
  });

  it('draws fresh randomness for each new millisecond', () => {
    const now = Date.now() + 10_000;
    const tails = new Set(Array.from({ length: 300 }, (_, i) => newId(now + i).slice(10)));
    expect(tails.size).toBe(300);
  });

  it('draws every one of the 32 digits in every random position', () => {
    const now = Date.now() + 20_000;
    const tails = Array.from({ length: 2000 }, (_, i) => newId(now + i).slice(10));
    for (let position = 0; position < 16; position++) {
      const digits = new Set(tails.map((tail) => tail[position]));
      expect(digits.size, `position ${position}`).toBe(32);
    }
  });
});
